"""scatter_add: add an array into the indexed positions of another (unbuffered, repeats accumulate)."""
import numpy

from kusari import backend
from kusari.function_node import FunctionNode
from kusari.functions.array._common import add_at


class ScatterAdd(FunctionNode):
    def __init__(self, slices):
        self._slices = slices

    def forward(self, inputs):
        a, b = inputs
        if a.dtype != b.dtype:
            raise TypeError(f"scatter_add: a.dtype={a.dtype} and b.dtype={b.dtype} differ; "
                            "cast explicitly, kusari never upcasts")
        xp = backend.get_array_module(a)
        self._slices = tuple(xp.asarray(s) if isinstance(s, numpy.ndarray) else s
                             for s in self._slices)
        y = a.copy()
        try:
            add_at(y, self._slices, b)
        except (IndexError, ValueError) as e:
            raise type(e)(f"scatter_add: cannot add b.shape={b.shape} into a[slices] with "
                          f"a.shape={a.shape}, slices={self._slices!r} ({e})") from None
        return y,

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.get_item import get_item
        from kusari.functions.array.sum_to import sum_to
        gy = grad_outputs[0]
        return tuple(gy if i == 0 else sum_to(get_item(gy, self._slices), self.inputs[1].shape)
                     for i in indexes)


def scatter_add(a, slices, b):
    """A copy of ``a`` with ``b`` added at ``a[slices]``; repeated indices add up (``numpy.add.at``).

    ``slices``: anything ``get_item`` accepts (ints, slices, None, Ellipsis, integer or boolean
    arrays). ``b`` must broadcast to ``a[slices].shape``. Returns a Variable of ``a``'s shape.
    """
    from kusari.functions.array.get_item import _normalize_slices
    return ScatterAdd(_normalize_slices(slices)).apply((a, b))[0]
