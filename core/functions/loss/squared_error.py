"""squared_error and mean_squared_error: elementwise and mean squared difference of two arrays."""
from kusari.functions.loss._common import PointwiseLoss


class SquaredError(PointwiseLoss):
    fname = "squared_error"
    argnames = ("x0", "x1")
    reductions = ("no", "mean")

    def _loss(self, xp, x0, x1):
        diff = x0 - x1
        return diff * diff

    def _grads(self, indexes, inputs, gy):
        x0, x1 = inputs
        gx0 = (x0 - x1) * gy * 2.0
        return tuple(gx0 if i == 0 else -gx0 for i in indexes)


class MeanSquaredError(SquaredError):
    fname = "mean_squared_error"


def squared_error(x0, x1):
    """Elementwise squared error (x0 - x1) ** 2.

    ``x0``, ``x1``: float arrays of one shape and dtype; returns a Variable of that shape.
    """
    return SquaredError("no").apply((x0, x1))[0]


def mean_squared_error(x0, x1):
    """Mean squared error: the mean of (x0 - x1) ** 2 over all elements.

    ``x0``, ``x1``: float arrays of one shape and dtype; returns a scalar Variable.
    """
    return MeanSquaredError("mean").apply((x0, x1))[0]
