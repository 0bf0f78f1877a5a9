"""random_expand: place an image at a random spot of a larger canvas ("zoom out", SSD's augmentation)."""
import random

import numpy

from kusari.vision._canvas import filled
from kusari.vision._checks import check_image


def random_expand(img: numpy.ndarray, max_ratio: float = 4, fill=0, return_param: bool = False):
    """Place ``img`` on a canvas ``ratio`` times its size, ``ratio`` drawn from ``[1, max_ratio]``.

    The draws come from Python's ``random`` module in ChainerCV's order (``uniform(1, max_ratio)``,
    then the y and x offsets by ``randint``), so ``random.seed`` reproduces its canvases
    (W. Liu et al., SSD: Single Shot MultiBox Detector, ECCV 2016).

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image.
    max_ratio : float
        The largest expansion; at most 1 returns ``img`` unchanged.
    fill : float, sequence of C floats, or numpy.ndarray of shape (C, 1, 1)
        The value of the canvas around the image (SSD uses the ImageNet mean).
    return_param : bool
        Also return the ratio and the offsets.

    Returns
    -------
    numpy.ndarray, shape (C, int(H * ratio), int(W * ratio)), or (numpy.ndarray, dict)
        The canvas, of ``img``'s dtype; with ``return_param``, also ``{'ratio': float,
        'y_offset': int, 'x_offset': int}``, the image's top-left corner on the canvas.
    """
    check_image("random_expand", img)
    if max_ratio <= 1:
        return (img, {"ratio": 1, "y_offset": 0, "x_offset": 0}) if return_param else img
    C, H, W = img.shape
    ratio = random.uniform(1, max_ratio)
    out_H, out_W = int(H * ratio), int(W * ratio)
    y_offset = random.randint(0, out_H - H)
    x_offset = random.randint(0, out_W - W)
    out = filled("random_expand", (C, out_H, out_W), img.dtype, fill)
    out[:, y_offset:y_offset + H, x_offset:x_offset + W] = img
    if return_param:
        return out, {"ratio": ratio, "y_offset": y_offset, "x_offset": x_offset}
    return out
