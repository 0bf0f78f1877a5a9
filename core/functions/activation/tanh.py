"""tanh: the hyperbolic tangent, elementwise."""
from kusari import backend, utils
from kusari.function_node import FunctionNode


class Tanh(FunctionNode):
    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("tanh", "x", x)
        self.retain_outputs((0,))
        return utils.force_array(backend.get_array_module(x).tanh(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * (1.0 - y * y),


def tanh(x):
    """Elementwise hyperbolic tangent.

    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return Tanh().apply((x,))[0]
