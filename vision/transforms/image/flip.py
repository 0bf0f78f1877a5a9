"""flip: an image upside down and/or left to right."""
import numpy

from kusari.vision._checks import check_image


def flip(img: numpy.ndarray, y_flip: bool = False, x_flip: bool = False, copy: bool = False) -> numpy.ndarray:
    """Flip a CHW image vertically (``y_flip``) and/or horizontally (``x_flip``).

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image.
    y_flip, x_flip : bool
        Flip along the height, along the width.
    copy : bool
        Return a copy instead of a view of ``img``.

    Returns
    -------
    numpy.ndarray, shape (C, H, W)
        The flipped image (a view unless ``copy``).
    """
    check_image("flip", img)
    if y_flip:
        img = img[:, ::-1, :]
    if x_flip:
        img = img[:, :, ::-1]
    return img.copy() if copy else img
