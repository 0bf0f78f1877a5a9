"""Kuzushiji-MNIST: 70,000 28x28 grey images of 10 cursive Japanese hiragana (60,000 train / 10,000 test)."""
import numpy

from kusari.dataset.download import Checksum
from kusari.datasets import _mnist_family

_BASE_URL = "http://codh.rois.ac.jp/kmnist/dataset/kmnist/"

# SHA-256 of the canonical .gz files, as checked by ankane/torchvision-ruby
# (lib/torchvision/datasets/kmnist.rb).
_CHECKSUMS = {
    "train-images-idx3-ubyte.gz": Checksum("51467d22d8cc72929e2a028a0428f2086b092bb31cfb79c69cc0a90ce135fde4"),
    "train-labels-idx1-ubyte.gz": Checksum("e38f9ebcd0f3ebcdec7fc8eabdcdaef93bb0df8ea12bee65224341c8183d8e17"),
    "t10k-images-idx3-ubyte.gz": Checksum("edd7a857845ad6bb1d0ba43fe7e794d164fe2dce499a1694695a792adfac43c5"),
    "t10k-labels-idx1-ubyte.gz": Checksum("20bb9a0ef54c7db3efc55a92eef5582c109615df22683c380526788f98e42a1c"),
}

_LABELS = (("o", "\u304a"), ("ki", "\u304d"), ("su", "\u3059"), ("tsu", "\u3064"), ("na", "\u306a"),
           ("ha", "\u306f"), ("ma", "\u307e"), ("ya", "\u3084"), ("re", "\u308c"), ("wo", "\u3092"))


def get_kuzushiji_mnist_labels():
    """The 10 classes indexed by label, as (romaji, hiragana) pairs: ``[('o', 'お'), ('ki', 'き'), ...]``."""
    return list(_LABELS)


def get_kuzushiji_mnist(withlabel=True, ndim=1, scale=1., dtype=None, label_dtype=numpy.int32,
                        rgb_format=False):
    """The Kuzushiji-MNIST training and test sets, cached under ``<dataset root>/kuzushiji-mnist``.

    Arguments and return value as :func:`kusari.datasets.get_mnist` (images ``(784,)``,
    ``(28, 28)`` or ``(1 or 3, 28, 28)``; 60,000 train and 10,000 test examples).
    """
    return _mnist_family.load("kuzushiji-mnist", _BASE_URL, _CHECKSUMS, "get_kuzushiji_mnist",
                              withlabel, ndim, scale, dtype, label_dtype, rgb_format)
