"""mean_absolute_error: the mean of |x0 - x1| over all elements, optionally ignoring NaNs."""
import kusari.functions as F
from kusari import backend
from kusari.chem.functions.loss._mean_error import MeanErrorBase


class MeanAbsoluteError(MeanErrorBase):
    """Mean absolute error."""

    fname = "mean_absolute_error"

    def _error_sum(self, diff):
        return backend.get_array_module(diff).abs(diff).sum()

    def _grad(self, diff):
        # sign has no gradient: |d| is piecewise linear, its second derivative is 0
        return F.sign(diff)


def mean_absolute_error(x0, x1, ignore_nan: bool = False):
    """Mean absolute error of two arrays.

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
    return MeanAbsoluteError(ignore_nan).apply((x0, x1))[0]
