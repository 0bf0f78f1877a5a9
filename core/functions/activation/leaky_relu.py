"""leaky_relu: x for x >= 0 and slope * x otherwise, elementwise."""
from kusari.functions.activation._piecewise_linear import PiecewiseLinear


class LeakyReLU(PiecewiseLinear):
    _fname = "leaky_relu"

    def __init__(self, slope):
        self.slope = slope
        # with a positive slope y has x's sign bit, so the slope is read from y (x may be freed);
        # a zero or negative one loses it (y >= 0 either side of 0), so x is kept
        self._slope_from_output = slope > 0

    def _value(self, xp, x):
        return xp.where(x >= 0, x, x * self.slope)

    def _slope(self, xp, a):
        # the sign bit, not a < 0: slope * x of a tiny negative x can round to -0.0
        return xp.where(xp.signbit(a), a.dtype.type(self.slope), a.dtype.type(1))


def leaky_relu(x, slope=0.2):
    """Leaky rectified linear unit: ``x`` where ``x >= 0``, ``slope * x`` elsewhere.

    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return LeakyReLU(float(slope)).apply((x,))[0]
