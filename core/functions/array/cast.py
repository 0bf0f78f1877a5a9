"""cast: convert an array to another dtype (the one op that may change dtype)."""
import numpy

from kusari.function_node import FunctionNode
from kusari.variable import as_variable


class Cast(FunctionNode):
    def __init__(self, typ):
        self._type = typ

    def forward(self, inputs):
        x = inputs[0]
        self._in_type = x.dtype
        return x.astype(self._type, copy=False),

    def backward(self, indexes, grad_outputs):
        return Cast(self._in_type).apply(grad_outputs)


def cast(x, typ):
    """``x`` converted to dtype ``typ``; the gradient is cast back to ``x``'s dtype.

    ``x``: array of any shape. Returns a Variable of the same shape with dtype ``typ``
    (``x`` itself, as a Variable, when it already has that dtype).
    """
    try:
        typ = numpy.dtype(typ)
    except TypeError:
        raise TypeError(f"cast: typ={typ!r} is not a dtype") from None
    if x.dtype == typ:
        return as_variable(x)
    return Cast(typ).apply((x,))[0]
