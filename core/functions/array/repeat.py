"""repeat: repeat each element of an array along an axis."""
import numbers

import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode


class Repeat(FunctionNode):
    def __init__(self, repeats, axis):
        self._repeats = repeats
        self._axis = axis

    def forward(self, inputs):
        x = inputs[0]
        if self._axis is not None:
            if x.ndim == 0:
                raise ValueError(f"repeat: axis={self._axis} given but x is 0-dimensional")
            self._axis = utils.normalize_axis("repeat", self._axis, x.ndim)[0]
        n = x.size if self._axis is None else x.shape[self._axis]
        if len(self._repeats) not in (1, n):
            where = "x.size" if self._axis is None else f"x.shape[{self._axis}]"
            raise ValueError(f"repeat: {len(self._repeats)} repeats given for {where}={n} "
                             f"elements (x.shape={x.shape}); give one count or one per element")
        self._counts = self._repeats[0] if len(self._repeats) == 1 else list(self._repeats)
        return backend.get_array_module(x).repeat(x, self._counts, axis=self._axis),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.get_item import GetItemGrad
        from kusari.functions.array.reshape import reshape
        gy = grad_outputs[0]
        shape = self.inputs[0].shape
        xp = backend.get_array_module(gy.array)
        n = utils.size_of_shape(shape) if self._axis is None else shape[self._axis]
        # output element j along the axis is a copy of input element source[j]
        source = xp.asarray(numpy.repeat(numpy.arange(n), self._counts))
        if self._axis is None:
            return reshape(GetItemGrad((source,), (n,)).apply((gy,))[0], shape),
        return GetItemGrad((slice(None),) * self._axis + (source,), shape).apply((gy,))


def repeat(x, repeats, axis=None):
    """Repeat each element of ``x`` ``repeats`` times along ``axis`` (``numpy.repeat``).

    ``repeats``: an int, or one non-negative int per element along ``axis``. With ``axis=None``
    ``x`` is flattened first and the result is 1-D.
    """
    counts = (repeats,) if isinstance(repeats, numbers.Integral) else tuple(repeats)
    if not counts or any(not isinstance(r, numbers.Integral) or r < 0 for r in counts):
        raise ValueError(f"repeat: repeats={repeats!r} must be a non-negative int or a "
                         "non-empty sequence of them")
    return Repeat(tuple(int(r) for r in counts), axis).apply((x,))[0]
