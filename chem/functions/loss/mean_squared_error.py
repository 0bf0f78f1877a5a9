"""mean_squared_error: the mean of (x0 - x1) ** 2 over all elements, optionally ignoring NaNs."""
from kusari.chem.functions.loss._mean_error import MeanErrorBase


class MeanSquaredError(MeanErrorBase):
    """Mean squared error (not halved)."""

    fname = "mean_squared_error"

    def _error_sum(self, diff):
        return diff.dot(diff)

    def _grad(self, diff):
        return 2.0 * diff


def mean_squared_error(x0, x1, ignore_nan: bool = False):
    """Mean squared error of two arrays.

    Parameters
    ----------
    x0, x1 : Variable or array, one shape, one float dtype
    ignore_nan : bool
        Count elements whose difference is NaN as 0. The divisor stays the number of all
        elements (as Chainer Chemistry), and they get zero gradient.

    Returns
    -------
    Variable
        0-d, in the inputs' dtype.
    """
    return MeanSquaredError(ignore_nan).apply((x0, x1))[0]
