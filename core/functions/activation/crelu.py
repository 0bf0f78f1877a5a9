"""crelu: the concatenated rectifier, relu(x) and relu(-x) joined along an axis."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.activation.softmax import single_axis


class CReLU(FunctionNode):
    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("crelu", "x", x)
        self.axis = single_axis("crelu", self.axis, x)
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return xp.concatenate((xp.maximum(x, 0), xp.maximum(-x, 0)), axis=self.axis),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        gy = grad_outputs[0]
        n = x.shape[self.axis]
        lead = (slice(None),) * self.axis
        g_pos = gy[lead + (slice(0, n),)] * (x > 0).astype(x.dtype)
        g_neg = gy[lead + (slice(n, 2 * n),)] * (x < 0).astype(x.dtype)
        return g_pos - g_neg,


def crelu(x, axis=1):
    """Concatenated ReLU: ``concat((relu(x), relu(-x)), axis)``.

    x: float array of shape ``(s_0, ..., s_axis, ...)``; returns a Variable whose ``axis``
    dimension is ``2 * s_axis``.
    """
    return CReLU(axis).apply((x,))[0]
