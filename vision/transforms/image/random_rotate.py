"""random_rotate: rotate an image by a random multiple of 90 degrees (deprecated in ChainerCV)."""
import warnings

import numpy

from kusari.vision._checks import check_image


def random_rotate(img: numpy.ndarray, return_param: bool = False):
    """Rotate ``img`` counter-clockwise by ``90 * k`` degrees, ``k = numpy.random.randint(4)``.

    Deprecated, as in ChainerCV (a DeprecationWarning says so): draw an angle and call
    :func:`rotate` instead.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image.
    return_param : bool
        Also return ``k``.

    Returns
    -------
    numpy.ndarray, shape (C, H, W) or (C, W, H), or (numpy.ndarray, dict)
        A rotated view of ``img``; with ``return_param``, also ``{'k': int}``.
    """
    warnings.warn("random_rotate is deprecated (as in ChainerCV): draw an angle and use "
                  "kusari.vision.transforms.rotate instead", DeprecationWarning, stacklevel=2)
    check_image("random_rotate", img)
    k = numpy.random.randint(4)
    img = numpy.rot90(img, k, axes=(1, 2))
    if return_param:
        return img, {"k": k}
    return img
