"""softplus: the smooth rectifier log(1 + exp(beta * x)) / beta, elementwise."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.activation.sigmoid import sigmoid


class Softplus(FunctionNode):
    def __init__(self, beta):
        self.beta = beta

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("softplus", "x", x)
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        bx = x * self.beta
        # max(bx, 0) + log1p(exp(-|bx|)) equals log(1 + exp(bx)) without overflow.
        y = xp.maximum(bx, 0) + xp.log1p(xp.exp(-abs(bx)))
        return utils.force_array(y * (1.0 / self.beta)),

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
