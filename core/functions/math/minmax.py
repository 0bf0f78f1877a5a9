"""max and min: largest / smallest elements over axes; the gradient flows to the extremal elements."""
from kusari import utils
from kusari.function_node import FunctionNode


class _Extremum(FunctionNode):
    _fname = ""

    def __init__(self, axis, keepdims):
        self._axis = axis
        self._keepdims = keepdims

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float(self._fname, "x", x)
        self._axes = utils.normalize_axis(self._fname, self._axis, x.ndim)
        if any(x.shape[a] == 0 for a in self._axes):
            raise ValueError(f"{self._fname}: cannot reduce over an empty axis "
                             f"(x.shape={x.shape}, axis={self._axis})")
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        reduce = getattr(x, self._fname)
        return utils.force_array(reduce(axis=self._axes, keepdims=self._keepdims)),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.broadcast import broadcast_to
        from kusari.functions.array.reshape import reshape
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        kept = tuple(1 if i in self._axes else s for i, s in enumerate(x.shape))
        # Every element equal to the extremum receives the gradient (ties included), as in Chainer.
        hit = (x.array == y.array.reshape(kept)).astype(x.dtype)
        return broadcast_to(reshape(grad_outputs[0], kept), x.shape) * hit,


class Max(_Extremum):
    _fname = "max"


class Min(_Extremum):
    _fname = "min"


def max(x, axis=None, keepdims=False):
    """Largest element of ``x`` over ``axis`` (None: all axes; an int or a tuple of ints).

    Returns ``x``'s shape without the reduced axes (kept as length 1 with ``keepdims``).
    """
    return Max(axis, keepdims).apply((x,))[0]


def min(x, axis=None, keepdims=False):
    """Smallest element of ``x`` over ``axis`` (None: all axes; an int or a tuple of ints).

    Returns ``x``'s shape without the reduced axes (kept as length 1 with ``keepdims``).
    """
    return Min(axis, keepdims).apply((x,))[0]
