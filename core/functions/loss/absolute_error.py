"""absolute_error and mean_absolute_error: elementwise and mean absolute difference of two arrays."""
from kusari.functions.loss._common import PointwiseLoss


class AbsoluteError(PointwiseLoss):
    fname = "absolute_error"
    argnames = ("x0", "x1")
    reductions = ("no", "mean")

    def _loss(self, xp, x0, x1):
        return abs(x0 - x1)

    def _grads(self, indexes, inputs, gy):
        x0, x1 = inputs
        xp = x0.xp
        # The sign is piecewise constant, so the gradient's own derivative by x0, x1 is 0.
        gx0 = gy * xp.sign(x0.array - x1.array)
        return tuple(gx0 if i == 0 else -gx0 for i in indexes)


class MeanAbsoluteError(AbsoluteError):
    fname = "mean_absolute_error"


def absolute_error(x0, x1):
    """Elementwise absolute error |x0 - x1|.

    ``x0``, ``x1``: float arrays of one shape and dtype; returns a Variable of that shape.
    """
    return AbsoluteError("no").apply((x0, x1))[0]


def mean_absolute_error(x0, x1):
    """Mean absolute error: the mean of |x0 - x1| over all elements.

    ``x0``, ``x1``: float arrays of one shape and dtype; returns a scalar Variable.
    """
    return MeanAbsoluteError("mean").apply((x0, x1))[0]
