"""random_crop: a region of a given size at a random place in an image."""
import random

import numpy

from kusari.vision._checks import check_image, check_size


def random_crop(img: numpy.ndarray, size: tuple, return_param: bool = False, copy: bool = False):
    """Crop a ``size`` region at a uniformly random offset.

    The offsets come from Python's ``random`` module, y first (``random.randint(0, H - out_H)``, then
    ``random.randint(0, W - out_W)``), as in ChainerCV, so ``random.seed`` reproduces its crops.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image.
    size : tuple of two ints
        ``(out_H, out_W)``, at most ``(H, W)``.
    return_param : bool
        Also return the slices.
    copy : bool
        Return a copy instead of a view of ``img``.

    Returns
    -------
    numpy.ndarray, shape (C, out_H, out_W), or (numpy.ndarray, dict)
        The crop; with ``return_param``, also ``{'y_slice': slice, 'x_slice': slice}`` such that
        ``crop = img[:, y_slice, x_slice]``.
    """
    check_image("random_crop", img)
    out_H, out_W = check_size("random_crop", size)
    _, H, W = img.shape
    if out_H > H or out_W > W:
        raise ValueError(f"random_crop: size {(out_H, out_W)} is larger than the image ({H}, {W}) "
                         f"(img.shape={img.shape})")
    y_offset = random.randint(0, H - out_H)
    x_offset = random.randint(0, W - out_W)
    y_slice = slice(y_offset, y_offset + out_H)
    x_slice = slice(x_offset, x_offset + out_W)
    img = img[:, y_slice, x_slice]
    if copy:
        img = img.copy()
    if return_param:
        return img, {"y_slice": y_slice, "x_slice": x_slice}
    return img
