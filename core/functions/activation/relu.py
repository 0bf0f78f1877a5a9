"""relu: the rectified linear unit max(x, 0), elementwise."""
from kusari import utils
from kusari.functions.activation._piecewise_linear import PiecewiseLinear


class ReLU(PiecewiseLinear):
    _fname = "relu"

    def _value(self, xp, x):
        return xp.maximum(x, utils.scalar_operand(0, x))

    def _slope(self, xp, x):
        return (x > utils.scalar_operand(0, x)).astype(x.dtype)


def relu(x):
    """Rectified linear unit ``max(x, 0)``.

    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return ReLU().apply((x,))[0]
