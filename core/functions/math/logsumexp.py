"""logsumexp: log(sum(exp(x))) over axes, computed without overflow."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.math.exponential import exp


class LogSumExp(FunctionNode):
    def __init__(self, axis):
        self._axis = axis

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("logsumexp", "x", x)
        self._axes = utils.normalize_axis("logsumexp", self._axis, x.ndim)
        if any(x.shape[a] == 0 for a in self._axes):
            raise ValueError(f"logsumexp: cannot reduce over an empty axis "
                             f"(x.shape={x.shape}, axis={self._axis})")
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        m = x.max(axis=self._axes, keepdims=True)
        # An all -inf (or inf) slice: shifting by it would give nan, so do not shift it.
        m = xp.where(xp.isfinite(m), m, xp.zeros_like(m))
        y = xp.log(xp.exp(x - m).sum(axis=self._axes, keepdims=True)) + m
        return utils.force_array(y.reshape(self._out_shape(x.shape))),

    def _out_shape(self, shape):
        return tuple(s for i, s in enumerate(shape) if i not in self._axes)

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.broadcast import broadcast_to
        from kusari.functions.array.reshape import reshape
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        kept = tuple(1 if i in self._axes else s for i, s in enumerate(x.shape))
        # The gradient is the softmax of x over the reduced axes.
        gy = broadcast_to(reshape(grad_outputs[0], kept), x.shape)
        return gy * exp(x - broadcast_to(reshape(y, kept), x.shape)),


def logsumexp(x, axis=None):
    """``log(sum(exp(x), axis))`` for ``axis`` None (all axes), an int or a tuple of ints.

    Returns ``x``'s shape without the reduced axes.
    """
    return LogSumExp(axis).apply((x,))[0]
