"""random_flip: flip an image vertically and/or horizontally with probability 1/2 each."""
import random

import numpy

from kusari.vision._checks import check_image
from kusari.vision.transforms.image.flip import flip


def random_flip(img: numpy.ndarray, y_random: bool = False, x_random: bool = False,
                return_param: bool = False, copy: bool = False):
    """Flip ``img`` vertically (if ``y_random``) and horizontally (if ``x_random``), each with
    probability 1/2.

    Each choice is ``random.choice([True, False])`` of Python's ``random`` module, y first, as in
    ChainerCV, so ``random.seed`` reproduces its flips.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image.
    y_random, x_random : bool
        Whether to draw a vertical, a horizontal flip.
    return_param : bool
        Also return the flips made.
    copy : bool
        Return a copy instead of a view of ``img``.

    Returns
    -------
    numpy.ndarray, shape (C, H, W), or (numpy.ndarray, dict)
        The image; with ``return_param``, also ``{'y_flip': bool, 'x_flip': bool}``.
    """
    check_image("random_flip", img)
    y_flip = random.choice([True, False]) if y_random else False
    x_flip = random.choice([True, False]) if x_random else False
    img = flip(img, y_flip=y_flip, x_flip=x_flip, copy=copy)
    if return_param:
        return img, {"y_flip": y_flip, "x_flip": x_flip}
    return img
