"""Re-initialize a layer in place, as PFRL's ``pfrl.initializers`` does for torch layers.

PFRL gives its torch networks Chainer's initialization (``init_chainer_default``,
``init_lecun_normal``); kusari's layers start that way, so here the same names re-draw a layer, and
:func:`init_pytorch_default` gives a kusari layer PyTorch's default instead, which recipes tuned on
Stable-Baselines3 (PyTorch) networks assume. Draws come from NumPy's global generator (seeded by
``kusari.rl.utils.set_random_seed``).
"""
import math

import numpy

from kusari import Link
from kusari import initializers as I


def _weight_and_bias(layer: Link, caller: str):
    W = getattr(layer, "W", None)
    if W is None or W.array is None:
        raise TypeError(f"{caller}: expected a layer with an initialized weight W (Linear, "
                        f"Convolution2D, ...), got {type(layer).__name__}")
    return W, getattr(layer, "b", None)


def init_lecun_normal(array: numpy.ndarray, scale: float = 1.0) -> numpy.ndarray:
    """Fill ``array`` (a weight, ``(out, in, ...)``) in place from LeCun's normal, times ``scale``."""
    I.LeCunNormal(scale=scale)(array)
    return array


def init_chainer_default(layer: Link) -> Link:
    """Chainer's default for ``layer``: LeCun-normal weight, zero bias (in place; returns ``layer``)."""
    W, b = _weight_and_bias(layer, "init_chainer_default")
    init_lecun_normal(W.array)
    if b is not None and b.array is not None:
        b.array[...] = 0
    return layer


def init_pytorch_default(layer: Link) -> Link:
    """PyTorch's default for ``layer`` (``nn.Linear``/``nn.Conv2d``): weight and bias drawn from
    ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))`` (in place; returns ``layer``)."""
    W, b = _weight_and_bias(layer, "init_pytorch_default")
    bound = 1.0 / math.sqrt(W.array[0].size)   # fan_in: in_channels * kernel area
    I.Uniform(bound)(W.array)
    if b is not None and b.array is not None:
        I.Uniform(bound)(b.array)
    return layer
