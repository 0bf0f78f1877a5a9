"""gaussian_kl_divergence: KL divergence of a diagonal Gaussian from the standard normal."""
from kusari.functions.loss._common import PointwiseLoss


class GaussianKLDivergence(PointwiseLoss):
    fname = "gaussian_kl_divergence"
    argnames = ("mean", "ln_var")
    reductions = ("sum", "mean", "no")

    def _loss(self, xp, mean, ln_var):
        return (mean * mean + xp.exp(ln_var) - ln_var - 1) * 0.5

    def _grads(self, indexes, inputs, gy):
        from kusari.functions.math.exponential import exp
        mean, ln_var = inputs
        return tuple(gy * mean if i == 0 else gy * (exp(ln_var) - 1) * 0.5 for i in indexes)


def gaussian_kl_divergence(mean, ln_var, reduce="sum"):
    """KL(N(mean, exp(ln_var)) || N(0, 1)) elementwise: (mean**2 + exp(ln_var) - ln_var - 1) / 2.

    Parameters
    ----------
    mean : float array, any shape
    ln_var : float array, same shape and dtype
        Log of the variance.
    reduce : {'sum', 'mean', 'no'}
        'sum' returns a scalar, 'mean' the scalar average; 'no' the elementwise divergence of ``mean``'s shape.
    """
    return GaussianKLDivergence(reduce).apply((mean, ln_var))[0]
