"""log_softmax: the logarithm of softmax, x - logsumexp(x) along an axis."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.activation.softmax import shifted_exp, single_axis


def log_softmax_and_softmax(xp, x, axis):
    """Arrays ``log(softmax(x))`` and ``softmax(x)`` along ``axis``, from one exp pass.

    For the losses that need both (softmax_cross_entropy, connectionist_temporal_classification).
    """
    z, e, total = shifted_exp(xp, x, axis)
    z -= xp.log(total)
    e /= total
    return z, e


class LogSoftmax(FunctionNode):
    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("log_softmax", "x", x)
        self.axis = single_axis("log_softmax", self.axis, x)
        xp = backend.get_array_module(x)
        y, _, total = shifted_exp(xp, x, self.axis)
        y -= xp.log(total)
        self.retain_outputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        from kusari.functions.math.exponential import exp
        from kusari.functions.math.sum import sum as _sum
        y, = self.get_retained_outputs()
        gy = grad_outputs[0]
        return gy - exp(y) * _sum(gy, axis=self.axis, keepdims=True),


def log_softmax(x, axis=1):
    """``log(softmax(x, axis))`` computed stably as ``x - logsumexp(x, axis)``.

    x: float array with at least one dimension; returns a Variable of the same shape.
    """
    return LogSoftmax(axis).apply((x,))[0]
