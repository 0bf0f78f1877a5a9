"""elu: the exponential linear unit, x for x > 0 and alpha * (exp(x) - 1) otherwise."""
from kusari import backend, utils
from kusari.function_node import FunctionNode


class ELU(FunctionNode):
    """``scale * (x if x > 0 else alpha * (exp(x) - 1))``; ``scale`` serves selu."""

    def __init__(self, alpha, scale=1.0, fname="elu"):
        self.alpha = alpha
        self.scale = scale
        self._fname = fname

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float(self._fname, "x", x)
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        y = xp.where(x > 0, x, xp.expm1(x) * self.alpha)
        if self.scale != 1.0:
            y *= self.scale
        return utils.force_array(y),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        y, = self.get_retained_outputs()
        # For x <= 0, dy/dx = scale * alpha * exp(x) = y + scale * alpha: writing it through the
        # retained output keeps the gradient differentiable with respect to x.
        neg = (x <= 0).astype(x.dtype)
        offset = utils.force_array(neg * (self.scale * self.alpha) + (1 - neg) * self.scale)
        return grad_outputs[0] * (y * utils.force_array(neg) + offset),


def elu(x, alpha=1.0):
    """Exponential linear unit: ``x`` where ``x > 0``, ``alpha * (exp(x) - 1)`` elsewhere.

    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return ELU(float(alpha)).apply((x,))[0]
