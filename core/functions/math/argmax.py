"""argmax and argmin: int32 indices of the largest / smallest elements (not differentiable)."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode


class _ArgExtremum(FunctionNode):
    _fname = ""

    def __init__(self, axis):
        if axis is not None and (isinstance(axis, bool) or not isinstance(axis, int)):
            raise TypeError(f"{self._fname}: axis must be an int or None, got {axis!r}")
        self._axis = axis

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float(self._fname, "x", x)
        if self._axis is not None:
            utils.normalize_axis(self._fname, self._axis, x.ndim)
        if x.size == 0:
            raise ValueError(f"{self._fname}: x is empty (shape {x.shape})")
        xp = backend.get_array_module(x)
        return utils.force_array(getattr(xp, self._fname)(x, axis=self._axis).astype(numpy.int32)),

    def backward(self, indexes, grad_outputs):
        return tuple(None for _ in indexes)


class ArgMax(_ArgExtremum):
    _fname = "argmax"


class ArgMin(_ArgExtremum):
    _fname = "argmin"


def argmax(x, axis=None):
    """int32 index of the largest element of ``x`` along ``axis`` (of the flattened ``x`` if None).

    Returns ``x``'s shape without ``axis`` (a 0-d array when ``axis`` is None). No gradient.
    """
    return ArgMax(axis).apply((x,))[0]


def argmin(x, axis=None):
    """int32 index of the smallest element of ``x`` along ``axis`` (of the flattened ``x`` if None).

    Returns ``x``'s shape without ``axis`` (a 0-d array when ``axis`` is None). No gradient.
    """
    return ArgMin(axis).apply((x,))[0]
