"""silu: the sigmoid linear unit x * sigmoid(x), also known as swish with beta = 1."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.activation.sigmoid import sigmoid, sigmoid_array


class SiLU(FunctionNode):
    def forward(self, inputs):
        x, = inputs
        utils.check_float("silu", "x", x)
        self.retain_inputs((0,))
        return utils.force_array(x * sigmoid_array(backend.get_array_module(x), x), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        s = sigmoid(x)
        # d/dx [x s] = s + x s (1 - s)
        return grad_outputs[0] * (s * (x * (1.0 - s) + 1.0)),


def silu(x):
    """Sigmoid linear unit ``x * sigmoid(x)`` (Elfwing et al., 2018), as PyTorch's ``silu``.

    Parameters
    ----------
    x : float array or Variable, any shape

    Returns
    -------
    Variable of x's shape and dtype.
    """
    return SiLU().apply((x,))[0]
