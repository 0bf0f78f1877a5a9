"""get_item: basic and advanced indexing, differentiable (``x[slices]``)."""
import numpy

from kusari import backend
from kusari.function_node import FunctionNode
from kusari.functions.array._common import add_at
from kusari.variable import Variable


def _normalize_slices(slices):
    if not isinstance(slices, tuple):
        slices = (slices,)
    out = []
    for s in slices:
        if isinstance(s, Variable):
            s = s.array
        if isinstance(s, list):
            s = numpy.asarray(s)
            if s.size == 0 and s.dtype.kind == "f":   # an empty list indexes as integers, as in NumPy
                s = s.astype(numpy.intp)
        if hasattr(s, "dtype") and getattr(s, "ndim", 0) > 0 and s.dtype == bool:
            out.extend(s.nonzero())
            continue
        out.append(s)
    return tuple(out)


def _is_advanced(slices) -> bool:
    return any(hasattr(s, "ndim") and s.ndim > 0 for s in slices)


class GetItem(FunctionNode):
    def __init__(self, slices):
        self.slices = slices

    def forward(self, inputs):
        x = inputs[0]
        try:
            y = x[self.slices]
        except IndexError as e:
            raise IndexError(f"get_item: {e} (x.shape={x.shape}, index={self.slices!r})") from None
        xp = backend.get_array_module(x)
        return xp.asarray(y),

    def backward(self, indexes, grad_outputs):
        node = self.inputs[0]
        return GetItemGrad(self.slices, node.shape).apply(grad_outputs)


class GetItemGrad(FunctionNode):
    def __init__(self, slices, in_shape):
        self.slices = slices
        self._in_shape = in_shape

    def forward(self, inputs):
        gy = inputs[0]
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self._in_shape, gy.dtype)
        if _is_advanced(self.slices):
            add_at(gx, self.slices, gy)
        else:
            gx[self.slices] = gy
        return gx,

    def backward(self, indexes, grad_outputs):
        return GetItem(self.slices).apply(grad_outputs)


def get_item(x, slices):
    """``x[slices]`` with ints, slices, None, Ellipsis, integer/boolean arrays or lists."""
    return GetItem(_normalize_slices(slices)).apply((x,))[0]
