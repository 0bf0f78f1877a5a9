"""random_sized_crop: a crop of random area and aspect ratio (the Inception / ResNet training crop)."""
import math
import random

import numpy

from kusari.vision._checks import check_image


def _sample_parameters(H: int, W: int, scale_ratio_range, aspect_ratio_range) -> tuple:
    """``(scale_ratio, aspect_ratio)`` drawn as ChainerCV draws them (same calls, same order)."""
    for _ in range(10):
        aspect_ratio = random.uniform(aspect_ratio_range[0], aspect_ratio_range[1])
        if random.uniform(0, 1) < 0.5:
            aspect_ratio = 1 / aspect_ratio
        # the largest scale whose crop fits in the image at this aspect ratio
        scale_ratio_max = min((scale_ratio_range[1], H / (W * aspect_ratio), (aspect_ratio * W) / H))
        scale_ratio = random.uniform(scale_ratio_range[0], scale_ratio_range[1])
        if scale_ratio_range[0] <= scale_ratio <= scale_ratio_max:
            return scale_ratio, aspect_ratio
    # ten misses: a scale that fits, below scale_ratio_range[0] when even that does not fit
    scale_ratio = random.uniform(min((scale_ratio_range[0], scale_ratio_max)), scale_ratio_max)
    return scale_ratio, aspect_ratio


def random_sized_crop(img: numpy.ndarray, scale_ratio_range: tuple = (0.08, 1),
                      aspect_ratio_range: tuple = (3 / 4, 4 / 3), return_param: bool = False,
                      copy: bool = False):
    """Crop a region of random relative area ``s`` and aspect ratio ``a`` at a random place.

    ``s ~ Uniform(scale_ratio_range)``; ``a = b`` or ``1 / b`` (probability 1/2 each) with
    ``b ~ Uniform(aspect_ratio_range)``; a pair whose crop does not fit is redrawn, up to ten times,
    after which ``s`` is drawn below the largest scale that fits. The crop is
    ``H_crop = floor(sqrt(s * H * W * a))`` by ``W_crop = floor(sqrt(s * H * W / a))`` at offsets
    ``randint(0, H - H_crop)``, ``randint(0, W - W_crop)``. Every draw is a call of Python's
    ``random`` module in ChainerCV's order, so ``random.seed`` reproduces its crops.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image.
    scale_ratio_range : tuple of two floats
        The range of ``s`` (default 8% to 100% of the area).
    aspect_ratio_range : tuple of two floats
        The range of ``b`` (default 3/4 to 4/3).
    return_param : bool
        Also return the slices and the drawn ratios.
    copy : bool
        Return a copy instead of a view of ``img``.

    Returns
    -------
    numpy.ndarray, shape (C, H_crop, W_crop), or (numpy.ndarray, dict)
        The crop; with ``return_param``, also ``{'y_slice': slice, 'x_slice': slice,
        'scale_ratio': float, 'aspect_ratio': float}`` with ``crop = img[:, y_slice, x_slice]``.
    """
    check_image("random_sized_crop", img)
    _, H, W = img.shape
    scale_ratio, aspect_ratio = _sample_parameters(H, W, scale_ratio_range, aspect_ratio_range)
    H_crop = int(math.floor(math.sqrt(scale_ratio * H * W * aspect_ratio)))
    W_crop = int(math.floor(math.sqrt(scale_ratio * H * W / aspect_ratio)))
    y_start = random.randint(0, H - H_crop)
    x_start = random.randint(0, W - W_crop)
    y_slice = slice(y_start, y_start + H_crop)
    x_slice = slice(x_start, x_start + W_crop)
    img = img[:, y_slice, x_slice]
    if copy:
        img = img.copy()
    if return_param:
        return img, {"y_slice": y_slice, "x_slice": x_slice, "scale_ratio": scale_ratio,
                     "aspect_ratio": aspect_ratio}
    return img
