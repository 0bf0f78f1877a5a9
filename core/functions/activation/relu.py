"""relu: the rectified linear unit max(x, 0), elementwise."""
import numpy

from kusari import utils
from kusari._cuda_kernels import Elementwise
from kusari._tuning import RELU_ZERO_ROW
from kusari.functions.activation._piecewise_linear import PiecewiseLinear

# One pass each on the GPU, where CuPy's maximum and (y > 0).astype(...) * gy take one and three.
relu_forward_kernel = Elementwise("kusari_relu_fwd", "T x", "T y", "y = x > (T)0 ? x : (T)0")
relu_grad_kernel = Elementwise("kusari_relu_grad", "T y, T gy", "T gx", "gx = y > (T)0 ? gy : (T)0")


class ReLU(PiecewiseLinear):
    _fname = "relu"
    _slope_from_output = True   # y > 0 exactly where x > 0
    _gpu_grad_kernel = relu_grad_kernel

    def _value(self, xp, x):
        if xp is not numpy:
            return relu_forward_kernel(x)
        if RELU_ZERO_ROW and xp is numpy and x.ndim == 2:
            # NumPy's float maximum runs its SIMD loop on two arrays but not on an array and a scalar;
            # the short rows of conv activations cost more broadcast than that (kusari._tuning)
            return numpy.maximum(x, numpy.zeros(x.shape[-1], x.dtype))
        return xp.maximum(x, utils.scalar_operand(0, x))

    def _slope(self, xp, y):
        return (y > utils.scalar_operand(0, y)).astype(y.dtype)



def relu(x):
    """Rectified linear unit ``max(x, 0)``.

    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return ReLU().apply((x,))[0]
