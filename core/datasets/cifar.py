"""CIFAR-10 and CIFAR-100: 60,000 32x32 colour images (50,000 train / 10,000 test) in 10 or 100 classes."""
import functools
import pickle
import tarfile

import numpy

from kusari.dataset.download import Checksum
from kusari.datasets import _loading

_URL = "https://www.cs.toronto.edu/~kriz/{}-python.tar.gz"

# SHA-256 of the canonical archives, as checked by Keras (keras/datasets/cifar10.py, cifar100.py).
_CHECKSUMS = {
    "cifar-10": Checksum("6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce"),
    "cifar-100": Checksum("85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7"),
}

# archive members per split, and the key of the labels in each pickled batch
_MEMBERS = {
    "cifar-10": ({"train": [f"cifar-10-batches-py/data_batch_{i}" for i in range(1, 6)],
                  "test": ["cifar-10-batches-py/test_batch"]}, "labels"),
    "cifar-100": ({"train": ["cifar-100-python/train"], "test": ["cifar-100-python/test"]},
                  "fine_labels"),
}


def _read_batches(archive, names, label_key, source):
    xs, ys = [], []
    for name in names:
        member = archive.extractfile(name)
        if member is None:
            raise ValueError(f"{source}: {name} is not a file in the archive")
        batch = pickle.load(member, encoding="latin1")
        x = numpy.asarray(batch["data"], dtype=numpy.uint8)
        y = numpy.asarray(batch[label_key], dtype=numpy.uint8)
        if x.ndim != 2 or x.shape[1] != 3072 or y.shape != (len(x),):
            raise ValueError(
                f"{source}: {name} holds data of shape {x.shape} and labels of shape {y.shape}, "
                "expected (N, 3072) and (N,)")
        xs.append(x)
        ys.append(y)
    return numpy.concatenate(xs), numpy.concatenate(ys)


def _build(name):
    path = _loading.fetch("cifar", _URL.format(name), _CHECKSUMS[name])
    members, label_key = _MEMBERS[name]
    arrays = {}
    # the archive passed its checksum, so unpickling its batches runs no untrusted code
    with tarfile.open(path, "r:gz") as archive:
        for split, names in members.items():
            arrays[f"{split}_x"], arrays[f"{split}_y"] = _read_batches(archive, names, label_key, path)
    return arrays


def _get_cifar(name, owner, withlabel, ndim, scale, dtype):
    if ndim not in (1, 3):
        raise ValueError(f"{owner}: ndim must be 1 or 3, got {ndim!r}")
    dtype = _loading.image_dtype(dtype, owner)
    raw = _loading.cached_arrays("cifar", f"{name}.npz", functools.partial(_build, name))
    shape = (3072,) if ndim == 1 else (3, 32, 32)
    return tuple(
        _loading.with_labels(_loading.scale_images(raw[f"{split}_x"].reshape((-1,) + shape), scale, dtype),
                             raw[f"{split}_y"], withlabel, numpy.int32)
        for split in ("train", "test"))


def get_cifar10(withlabel=True, ndim=3, scale=1., dtype=None):
    """The CIFAR-10 training and test sets, cached under ``<dataset root>/cifar``.

    Parameters
    ----------
    withlabel : bool
        return ``TupleDataset(images, int32 labels)``; else the image arrays only.
    ndim : int
        image shape: 3 -> ``(3, 32, 32)`` (RGB planes), 1 -> ``(3072,)``.
    scale : float
        pixels are mapped from [0, 255] to [0, scale].
    dtype
        image dtype (floating); ``kusari.config.dtype`` when None.

    Returns
    -------
    (train, test)
        50,000 and 10,000 examples, labels 0-9.
    """
    return _get_cifar("cifar-10", "get_cifar10", withlabel, ndim, scale, dtype)


def get_cifar100(withlabel=True, ndim=3, scale=1., dtype=None):
    """The CIFAR-100 training and test sets with the 100 fine labels, cached under ``<dataset root>/cifar``.

    Arguments as :func:`get_cifar10`. Returns (train, test): 50,000 and 10,000 examples, labels 0-99.
    """
    return _get_cifar("cifar-100", "get_cifar100", withlabel, ndim, scale, dtype)
