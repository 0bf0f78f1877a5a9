"""What the FPN modules share (ChainerCV's chainercv.links.model.fpn.misc): the clip of decoded box
sizes, smooth L1, host-side argsort and sampling, and the image scaling of ``FasterRCNN.prepare``."""
import numpy

import kusari
import kusari.functions as F
from kusari import backend
from kusari.vision import transforms
from kusari.vision._checks import check_image

#: The largest log-scale size offset a box decodes with: a box grows at most 1000 / 16 times.
exp_clip = numpy.log(1000 / 16)


def clipped_exp(xp, offset):
    """``exp(min(offset, exp_clip))`` in ``offset``'s dtype (a float32 offset stays float32)."""
    return xp.exp(xp.minimum(offset, offset.dtype.type(exp_clip)))


def smooth_l1(x, t, beta: float):
    """Elementwise smooth L1 loss of ``x - t``: ``d ** 2 / (2 beta)`` where ``|d| <= beta``, else
    ``|d| - beta / 2`` (:func:`kusari.functions.huber_loss` over ``beta``); shape of ``x``."""
    return F.huber_loss(x, t, beta, reduce="no") / beta


def argsort(x):
    """Indices that sort the 1-d array ``x`` in ascending order, ties in index order, computed on the
    host (as ChainerCV does, to spare GPU memory) and returned on ``x``'s device.

    ChainerCV sorts with NumPy's default, unstable quicksort; this sort is stable, so equal values
    keep their order (the two agree wherever the values differ).
    """
    xp = backend.get_array_module(x)
    order = numpy.argsort(backend.to_cpu(x), kind="stable")
    return order if xp is numpy else xp.asarray(order)


def choice(x, size: int):
    """``size`` distinct elements of the 1-d array ``x``, drawn on the host with NumPy's global
    generator (``numpy.random.choice(x, size, replace=False)``, ChainerCV's draw) and returned on
    ``x``'s device."""
    xp = backend.get_array_module(x)
    y = numpy.random.choice(backend.to_cpu(x), size, replace=False)
    return y if xp is numpy else xp.asarray(y)


def scale_img(img: numpy.ndarray, min_size: int, max_size: int) -> tuple[numpy.ndarray, float]:
    """Resize a CHW image so that its shorter side is ``min_size``, unless its longer side would then
    exceed ``max_size``: then the longer side is ``max_size``. The new sizes are truncated to ints.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
    min_size, max_size : int

    Returns
    -------
    (numpy.ndarray of shape (C, H', W'), float)
        The resized image (:func:`kusari.vision.transforms.resize`, bilinear) and the scale
        (a Python float: ``H' = int(H * scale)``).
    """
    check_image("scale_img", img)
    _, H, W = img.shape
    if min(H, W) == 0:
        raise ValueError(f"scale_img: img must not be empty, got shape={img.shape}")
    scale = min_size / min(H, W)
    if scale * max(H, W) > max_size:
        scale = max_size / max(H, W)
    size = int(H * scale), int(W * scale)
    return transforms.resize(img, size), scale


def as_variable(x):
    """``x`` as a Variable (a loss that no sample contributed to is a 0-d array)."""
    return x if isinstance(x, kusari.Variable) else kusari.Variable(backend.get_array_module(x).asarray(x))
