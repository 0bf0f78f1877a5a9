"""sum and mean: reductions over axes."""
from kusari import utils
from kusari.function_node import FunctionNode


class Sum(FunctionNode):
    def __init__(self, axis, keepdims):
        self._axis = axis
        self._keepdims = keepdims

    def forward(self, inputs):
        x = inputs[0]
        self._axes = utils.normalize_axis("sum", self._axis, x.ndim)
        return utils.force_array(x.sum(axis=self._axes, keepdims=self._keepdims)),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.broadcast import broadcast_to
        from kusari.functions.array.reshape import reshape
        shape = self.inputs[0].shape
        return broadcast_to(reshape(grad_outputs[0], self._kept_shape(shape)), shape),

    def _kept_shape(self, shape):
        """The input's ``shape`` with the summed axes as 1: the gradient's shape before it is broadcast."""
        return tuple(1 if i in self._axes else s for i, s in enumerate(shape))   # gy's shape with keepdims


def sum(x, axis=None, keepdims=False):
    """Sum of ``x`` over ``axis`` (None: all axes)."""
    return Sum(axis, keepdims).apply((x,))[0]


def mean(x, axis=None, weights=None, keepdims=False):
    """Mean of ``x`` over ``axis``; with ``weights`` it is the weighted average (see ``average``)."""
    if weights is not None:
        from kusari.functions.math.average import average
        return average(x, axis=axis, weights=weights, keepdims=keepdims)
    shape = x.shape
    axes = utils.normalize_axis("mean", axis, len(shape))
    count = utils.size_of_shape(shape[a] for a in axes)
    return sum(x, axis=axis, keepdims=keepdims) * (1.0 / max(count, 1))
