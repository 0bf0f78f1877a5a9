"""mish: the self-regularized activation x * tanh(softplus(x))."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.activation.softplus import softplus_array


class Mish(FunctionNode):
    def forward(self, inputs):
        x, = inputs
        utils.check_float("mish", "x", x)
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return utils.force_array(x * xp.tanh(softplus_array(xp, x)), x.dtype),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.activation.sigmoid import sigmoid
        from kusari.functions.activation.softplus import softplus
        from kusari.functions.activation.tanh import tanh
        x, = self.get_retained_inputs()
        t = tanh(softplus(x))
        # d/dx [x t] = t + x (1 - t^2) sigmoid(x), since d softplus(x) / dx = sigmoid(x)
        return grad_outputs[0] * (t + x * (1.0 - t * t) * sigmoid(x)),


def mish(x):
    """Mish ``x * tanh(softplus(x))`` (Misra, 2019), as PyTorch's ``mish``.

    Parameters
    ----------
    x : float array or Variable, any shape

    Returns
    -------
    Variable of x's shape and dtype.
    """
    return Mish().apply((x,))[0]
