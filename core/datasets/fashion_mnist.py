"""Fashion-MNIST: 70,000 28x28 grey images of clothing in 10 classes (60,000 train / 10,000 test)."""
import numpy

from kusari.dataset.download import Checksum
from kusari.datasets import _mnist_family

_BASE_URL = "http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"

# SHA-256 of the canonical .gz files, as checked by ankane/torchvision-ruby
# (lib/torchvision/datasets/fashion_mnist.rb).
_CHECKSUMS = {
    "train-images-idx3-ubyte.gz": Checksum("3aede38d61863908ad78613f6a32ed271626dd12800ba2636569512369268a84"),
    "train-labels-idx1-ubyte.gz": Checksum("a04f17134ac03560a47e3764e11b92fc97de4d1bfaf8ba1a3aa29af54cc90845"),
    "t10k-images-idx3-ubyte.gz": Checksum("346e55b948d973a97e58d2351dde16a484bd415d4595297633bb08f03db6a073"),
    "t10k-labels-idx1-ubyte.gz": Checksum("67da17c76eaffca5446c3361aaab5c3cd6d1c2608764d35dfb1850b086bf8dd5"),
}

_LABELS = ("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
           "Ankle boot")


def get_fashion_mnist_labels():
    """The names of the 10 classes, indexed by label: ``['T-shirt/top', 'Trouser', ...]``."""
    return list(_LABELS)


def get_fashion_mnist(withlabel=True, ndim=1, scale=1., dtype=None, label_dtype=numpy.int32,
                      rgb_format=False):
    """The Fashion-MNIST training and test sets, cached under ``<dataset root>/fashion-mnist``.

    Arguments and return value as :func:`kusari.datasets.get_mnist` (images ``(784,)``,
    ``(28, 28)`` or ``(1 or 3, 28, 28)``; 60,000 train and 10,000 test examples).
    """
    return _mnist_family.load("fashion-mnist", _BASE_URL, _CHECKSUMS, "get_fashion_mnist", withlabel,
                              ndim, scale, dtype, label_dtype, rgb_format)
