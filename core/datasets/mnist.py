"""MNIST: 70,000 handwritten digits (60,000 train / 10,000 test), 28x28 grey images, labels 0-9."""
import numpy

from kusari.dataset.download import Checksum
from kusari.datasets import _mnist_family

# Chainer fetched http://yann.lecun.com/exdb/mnist/, which is often unreachable now; this is the
# Google CVDF mirror used by TensorFlow Datasets, serving the same files.
_BASE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"

# MD5 of the decompressed IDX files, i.e. of the original bytes (see ../shared/data/README.md).
# Checking the decompressed content accepts the canonical .gz files (their own SHA-256 digests,
# 440fcabf..., 3552534a..., 8d422c7b..., f7ae60f9..., are listed in ankane/torchvision-ruby's
# lib/torchvision/datasets/mnist.rb) as well as copies whose gzip wrapper was rewritten.
_CHECKSUMS = {
    "train-images-idx3-ubyte.gz": Checksum("6bbc9ace898e44ae57da46a324031adb", "md5", "gzip"),
    "train-labels-idx1-ubyte.gz": Checksum("a25bea736e30d166cdddb491f175f624", "md5", "gzip"),
    "t10k-images-idx3-ubyte.gz": Checksum("2646ac647ad5339dbf082846283269ea", "md5", "gzip"),
    "t10k-labels-idx1-ubyte.gz": Checksum("27ae3e4e09519cfbb04c329615203637", "md5", "gzip"),
}


def get_mnist(withlabel=True, ndim=1, scale=1., dtype=None, label_dtype=numpy.int32,
              rgb_format=False):
    """The MNIST training and test sets, downloaded once and cached under ``<dataset root>/mnist``.

    Parameters
    ----------
    withlabel : bool
        return ``TupleDataset(images, labels)`` pairs; else the image arrays only.
    ndim : int
        image shape: 1 -> ``(784,)``, 2 -> ``(28, 28)``, 3 -> ``(1, 28, 28)``.
    scale : float
        pixels are mapped from [0, 255] to [0, scale].
    dtype
        image dtype (floating); ``kusari.config.dtype`` when None.
    label_dtype
        label dtype.
    rgb_format : bool
        with ``ndim=3``, repeat the channel: ``(3, 28, 28)``.

    Returns
    -------
    (train, test)
        60,000 and 10,000 examples.
    """
    return _mnist_family.load("mnist", _BASE_URL, _CHECKSUMS, "get_mnist", withlabel, ndim, scale,
                              dtype, label_dtype, rgb_format)
