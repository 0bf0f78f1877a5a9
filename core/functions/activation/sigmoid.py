"""sigmoid: the logistic function 1 / (1 + exp(-x)), elementwise."""
from kusari import backend, utils
from kusari.function_node import FunctionNode


def sigmoid_array(xp, x):
    """The logistic function on an array, computed as tanh(x / 2) / 2 + 1/2 (no overflow)."""
    half = x.dtype.type(0.5)
    return utils.force_array(xp.tanh(x * half) * half + half)


class Sigmoid(FunctionNode):
    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("sigmoid", "x", x)
        self.retain_outputs((0,))
        return sigmoid_array(backend.get_array_module(x), x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y * (1.0 - y),


def sigmoid(x):
    """Elementwise logistic sigmoid ``1 / (1 + exp(-x))``.

    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return Sigmoid().apply((x,))[0]
