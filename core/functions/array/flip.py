"""flip, fliplr, flipud: reverse the order of elements along an axis."""
import numbers

from kusari import backend, utils
from kusari.function_node import FunctionNode


class Flip(FunctionNode):
    def __init__(self, axis, fname="flip"):
        self._axis = axis
        self._fname = fname

    def forward(self, inputs):
        x = inputs[0]
        if x.ndim == 0:
            raise ValueError(f"{self._fname}: cannot flip a 0-dimensional array")
        self._axis = utils.normalize_axis(self._fname, self._axis, x.ndim)[0]
        return backend.get_array_module(x).flip(x, self._axis),

    def backward(self, indexes, grad_outputs):
        return Flip(self._axis).apply(grad_outputs)


def flip(x, axis):
    """``x`` reversed along the integer ``axis``; same shape."""
    if not isinstance(axis, numbers.Integral) or isinstance(axis, bool):
        raise TypeError(f"flip: axis must be an int, got {axis!r}")
    return Flip(int(axis)).apply((x,))[0]


def fliplr(a):
    """``a`` reversed along axis 1 (left/right); ``a`` needs at least 2 dimensions."""
    return Flip(1, "fliplr").apply((a,))[0]


def flipud(a):
    """``a`` reversed along axis 0 (up/down); ``a`` needs at least 1 dimension."""
    return Flip(0, "flipud").apply((a,))[0]
