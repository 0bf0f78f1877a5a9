"""relu: the rectified linear unit max(x, 0), elementwise."""
import numpy

from kusari import utils
from kusari._tuning import RELU_ZERO_ROW
from kusari.functions.activation._piecewise_linear import PiecewiseLinear


class ReLU(PiecewiseLinear):
    _fname = "relu"
    _slope_from_output = True   # y > 0 exactly where x > 0

    def _value(self, xp, x):
        if RELU_ZERO_ROW and xp is numpy and x.ndim:
            # NumPy's float maximum runs its SIMD loop on two arrays but not on an array and a scalar
            return numpy.maximum(x, numpy.zeros(x.shape[-1], x.dtype))
        return xp.maximum(x, utils.scalar_operand(0, x))

    def _slope(self, xp, y):
        return (y > utils.scalar_operand(0, y)).astype(y.dtype)


def relu(x):
    """Rectified linear unit ``max(x, 0)``.

    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return ReLU().apply((x,))[0]
