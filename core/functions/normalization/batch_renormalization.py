"""batch_renormalization and fixed_batch_renormalization: batch normalization pulled to running statistics."""
import warnings

from kusari import backend, utils
from kusari.functions.normalization.batch_normalization import (
    _check_running, _norm_axes, _standardize_batch, _update_running, fixed_batch_normalization, run_promoted)
from kusari.variable import as_variable


def batch_renormalization(x, gamma, beta, rmax, dmax, eps=2e-5, running_mean=None, running_var=None,
                          decay=0.9, update_statistics=False):
    """Batch renormalization: ``gamma * (x_hat * r + d) + beta`` (Ioffe, 2017).

    ``x_hat`` is x normalized with batch statistics as in ``batch_normalization``;
    ``r = clip(sigma_batch / sigma_running, 1/rmax, rmax)`` and
    ``d = clip((mean_batch - mean_running) / sigma_running, -dmax, dmax)`` are treated as constants
    in backward, as in the paper. x: (N, *gamma.shape, ...); gamma, beta, running_mean,
    running_var: gamma.shape. With ``update_statistics=True`` the running statistics are
    updated in place after r and d are computed (variance with Bessel's correction), except for an
    empty batch, which leaves them unchanged and gives an empty output (zero gradients for gamma
    and beta).
    Returns a Variable of x's shape.
    """
    fname = "batch_renormalization"
    if running_mean is None or running_var is None:
        raise TypeError(f"{fname}: running_mean and running_var are required (arrays of gamma's shape)")
    axes, expanded = _norm_axes(fname, x, gamma, beta, None)
    running_mean, running_var = _check_running(fname, running_mean, running_var, gamma.shape)

    def compute(x):
        gamma_, beta_ = utils.cast_like(x, gamma, beta)
        x_hat, node = _standardize_batch(fname, x, axes, eps)
        mean = node.mean.reshape(gamma.shape)
        var = node.var.reshape(gamma.shape)
        xp = backend.get_array_module(x_hat.array)
        dtype = x_hat.dtype
        running_sigma = xp.sqrt(running_var + float(eps)).astype(dtype, copy=False)
        r = xp.clip(xp.sqrt(var + float(eps)) / running_sigma, 1.0 / float(rmax), float(rmax))
        d = xp.clip((mean - running_mean.astype(dtype, copy=False)) / running_sigma, -float(dmax), float(dmax))
        m = x.size // max(utils.size_of_shape(gamma.shape), 1)
        if update_statistics and m > 0:
            _update_running(running_mean, running_var, mean, var, decay, m)
        from kusari.functions.array.reshape import reshape
        g = as_variable(gamma_)
        return x_hat * reshape(g * r, expanded) + reshape(g * d + beta_, expanded)
    return run_promoted(x, gamma, compute)


def fixed_batch_renormalization(x, gamma, beta, mean, var, eps=2e-5):
    """Deprecated alias of ``fixed_batch_normalization`` (as in Chainer v7); warns DeprecationWarning.

    x: (N, *gamma.shape, ...); gamma, beta, mean, var: gamma.shape. Returns a Variable of x's shape.
    """
    warnings.warn("fixed_batch_renormalization is deprecated; use fixed_batch_normalization",
                  DeprecationWarning, stacklevel=2)
    return fixed_batch_normalization(x, gamma, beta, mean, var, eps)
