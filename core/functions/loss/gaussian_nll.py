"""gaussian_nll: negative log-likelihood of data under a diagonal Gaussian."""
import math

from kusari.functions.loss._common import PointwiseLoss

_LOG_2PI = math.log(2 * math.pi)


class GaussianNLL(PointwiseLoss):
    fname = "gaussian_nll"
    argnames = ("x", "mean", "ln_var")
    reductions = ("sum", "mean", "no")

    def _loss(self, xp, x, mean, ln_var):
        diff = x - mean
        return (ln_var + _LOG_2PI + diff * diff * xp.exp(-ln_var)) * 0.5

    def _grads(self, indexes, inputs, gy):
        from kusari.functions.math.exponential import exp
        x, mean, ln_var = inputs
        diff = x - mean
        precision = exp(-ln_var)
        ret = []
        for i in indexes:
            if i == 2:
                ret.append(gy * (1 - diff * diff * precision) * 0.5)
            else:
                gx = gy * diff * precision
                ret.append(gx if i == 0 else -gx)
        return tuple(ret)


def gaussian_nll(x, mean, ln_var, reduce="sum"):
    """Negative log-likelihood of ``x`` under N(mean, exp(ln_var)), elementwise.

    (log(2 pi) + ln_var + (x - mean)**2 * exp(-ln_var)) / 2.

    Parameters
    ----------
    x, mean, ln_var : float arrays of one shape and dtype
    reduce : {'sum', 'mean', 'no'}
        'sum' returns a scalar, 'mean' the scalar average; 'no' the elementwise loss of ``x``'s shape.
    """
    return GaussianNLL(reduce).apply((x, mean, ln_var))[0]
