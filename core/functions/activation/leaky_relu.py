"""leaky_relu: x for x >= 0 and slope * x otherwise, elementwise."""
from kusari.functions.activation._piecewise_linear import PiecewiseLinear


class LeakyReLU(PiecewiseLinear):
    _fname = "leaky_relu"

    def __init__(self, slope):
        self.slope = slope

    def _value(self, xp, x):
        return xp.where(x >= 0, x, x * self.slope)

    def _slope(self, xp, x):
        return xp.where(x >= 0, x.dtype.type(1), x.dtype.type(self.slope))


def leaky_relu(x, slope=0.2):
    """Leaky rectified linear unit: ``x`` where ``x >= 0``, ``slope * x`` elsewhere.

    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return LeakyReLU(float(slope)).apply((x,))[0]
