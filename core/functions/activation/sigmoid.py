"""sigmoid: the logistic function 1 / (1 + exp(-x)), elementwise."""
import numpy

from kusari import backend, utils
from kusari._cuda_kernels import Elementwise
from kusari.function_node import FunctionNode

# One pass each on the GPU (CuPy runs the array expressions below as three and four kernels).
sigmoid_forward_kernel = Elementwise("kusari_sigmoid_fwd", "T x", "T y",
                                     "y = tanh(x * (T)0.5) * (T)0.5 + (T)0.5")
sigmoid_grad_kernel = Elementwise("kusari_sigmoid_grad", "T y, T gy", "T gx", "gx = gy * y * ((T)1 - y)")


def sigmoid_array(xp, x):
    """The logistic function on an array, computed as tanh(x / 2) / 2 + 1/2 (no overflow)."""
    if xp is not numpy and x.dtype != numpy.float16:
        return sigmoid_forward_kernel(x)
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

    def backward_arrays(self, indexes, grad_outputs):
        """The first-order gradient as one fused kernel on the GPU; None (the Variable path) elsewhere."""
        y = self._retained_output_data[0]
        return (sigmoid_grad_kernel(y, grad_outputs[0]),) if backend.is_gpu_array(y) else None


def sigmoid(x):
    """Elementwise logistic sigmoid ``1 / (1 + exp(-x))``.

    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return Sigmoid().apply((x,))[0]
