"""hard_sigmoid: the piecewise-linear sigmoid approximation clip(0.2 * x + 0.5, 0, 1)."""
from kusari.functions.activation._piecewise_linear import PiecewiseLinear


class HardSigmoid(PiecewiseLinear):
    _fname = "hard_sigmoid"
    # 0 < y < 1 exactly where the computed y is on its linear piece, -2.5 < x < 2.5 up to rounding
    _slope_from_output = True

    def _value(self, xp, x):
        return xp.clip(x * 0.2 + 0.5, 0, 1)

    def _slope(self, xp, y):
        return ((y > 0) & (y < 1)).astype(y.dtype) * 0.2


def hard_sigmoid(x):
    """Hard sigmoid ``clip(0.2 * x + 0.5, 0, 1)``.

    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return HardSigmoid().apply((x,))[0]
