"""tanh: the hyperbolic tangent, elementwise."""
from kusari import backend, utils
from kusari._cuda_kernels import Elementwise
from kusari.function_node import FunctionNode

# One pass on the GPU where CuPy runs gy * (1 - y * y) as three kernels.
tanh_grad_kernel = Elementwise("kusari_tanh_grad", "T y, T gy", "T gx", "gx = gy * ((T)1 - y * y)")


class Tanh(FunctionNode):
    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("tanh", "x", x)
        self.retain_outputs((0,))
        return utils.force_array(backend.get_array_module(x).tanh(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * (1.0 - y * y),

    def backward_arrays(self, indexes, grad_outputs):
        """The first-order gradient as one fused kernel on the GPU; None (the Variable path) elsewhere."""
        y = self._retained_output_data[0]
        return (tanh_grad_kernel(y, grad_outputs[0]),) if backend.is_gpu_array(y) else None


def tanh(x):
    """Elementwise hyperbolic tangent.

    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return Tanh().apply((x,))[0]
