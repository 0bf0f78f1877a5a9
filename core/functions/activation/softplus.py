"""softplus: the smooth rectifier log(1 + exp(beta * x)) / beta, elementwise."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.activation.sigmoid import sigmoid


def softplus_array(xp, x):
    """``log(1 + exp(x))`` of an array, computed as ``max(x, 0) + log1p(exp(-|x|))`` (no overflow)."""
    return xp.maximum(x, 0) + xp.log1p(xp.exp(-abs(x)))


class Softplus(FunctionNode):
    def __init__(self, beta):
        self.beta = beta

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("softplus", "x", x)
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return utils.force_array(softplus_array(xp, x * self.beta) * (1.0 / self.beta)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * sigmoid(x * self.beta),


def softplus(x, beta=1.0):
    """Softplus ``log(1 + exp(beta * x)) / beta``, a smooth approximation of relu.

    x: float array of any shape; beta: nonzero sharpness. Returns a Variable shaped like ``x``.
    """
    if beta == 0:
        raise ValueError("softplus: beta must be nonzero, got beta=0")
    return Softplus(float(beta)).apply((x,))[0]
