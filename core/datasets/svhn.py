"""SVHN (cropped digits): 32x32 colour images of house-number digits from Street View, labels 0-9."""
import functools

import numpy

from kusari.dataset.download import Checksum
from kusari.datasets import _loading

_URL = "http://ufldl.stanford.edu/housenumbers/{}_32x32.mat"

# MD5 of the canonical .mat files, as checked by torchvision (torchvision/datasets/svhn.py); no
# published SHA-256 was found.
_CHECKSUMS = {
    "train": Checksum("e26dedcc434d2e4c54c9b2d4a06d8373", "md5"),
    "test": Checksum("eb5a983be6a315427106f1b164d9cef3", "md5"),
    "extra": Checksum("a93ce644f1a588dc4d68dda5feec44a7", "md5"),
}


def _build(split):
    try:
        from scipy import io
    except ImportError as e:
        raise ImportError("get_svhn reads MATLAB files with SciPy: pip install 'kusari[special]'") from e
    path = _loading.fetch("svhn", _URL.format(split), _CHECKSUMS[split])
    mat = io.loadmat(path)
    x, y = mat["X"], mat["y"]
    if x.ndim != 4 or x.shape[:3] != (32, 32, 3) or y.size != x.shape[3]:
        raise ValueError(
            f"{path}: X of shape {x.shape} and y of shape {y.shape} do not form 32x32x3xN images "
            "with N labels")
    labels = y.reshape(-1).astype(numpy.uint8)
    labels[labels == 10] = 0  # the files label the digit 0 as 10
    # (H, W, C, N) -> (N, C, H, W)
    return {"x": numpy.ascontiguousarray(x.transpose(3, 2, 0, 1), dtype=numpy.uint8), "y": labels}


def get_svhn(withlabel=True, scale=1., dtype=None, label_dtype=numpy.int32, add_extra=False):
    """The SVHN training and test sets (and the extra set), cached under ``<dataset root>/svhn``.

    Needs SciPy to read the MATLAB files.

    Parameters
    ----------
    withlabel : bool
        return ``TupleDataset(images, labels)``; else the image arrays only.
    scale : float
        pixels are mapped from [0, 255] to [0, scale].
    dtype
        image dtype (floating); ``kusari.config.dtype`` when None.
    label_dtype
        label dtype; the digit 0 has label 0.
    add_extra : bool
        also return the 531,131 extra training examples.

    Returns
    -------
    (train, test) or (train, test, extra) of images ``(3, 32, 32)``: 73,257 and 26,032 examples.
    """
    dtype = _loading.image_dtype(dtype, "get_svhn")
    splits = ("train", "test", "extra") if add_extra else ("train", "test")
    result = []
    for split in splits:
        raw = _loading.cached_arrays("svhn", f"{split}.npz", functools.partial(_build, split))
        images = _loading.scale_images(raw["x"], scale, dtype)
        result.append(_loading.with_labels(images, raw["y"], withlabel, label_dtype))
    return tuple(result)
