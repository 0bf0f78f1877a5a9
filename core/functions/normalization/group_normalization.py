"""group_normalization: normalize each sample over groups of channels, then scale and shift per channel."""
import numbers

from kusari import utils
from kusari.functions.normalization._standardize import Standardize


def group_normalization(x, groups, gamma, beta, eps=1e-5):
    """Group normalization (Wu & He, 2018).

    x: (N, C, ...) with C divisible by ``groups``; gamma, beta: (C,). Each sample's channels
    ``[k*C/groups, (k+1)*C/groups)`` and all spatial positions are normalized together, then
    ``y = gamma[c] * x_hat + beta[c]``. An empty batch (N = 0) gives an empty output. gamma and beta
    share a float dtype, x's or another (computed in the promoted dtype, as ``batch_normalization``).
    Returns a Variable of x's shape and dtype.
    """
    fname = "group_normalization"
    utils.check_float(fname, "x", x)
    utils.check_float(fname, "gamma", gamma)
    utils.check_same_dtype(fname, gamma=gamma, beta=beta)
    if x.ndim < 2:
        raise ValueError(f"{fname}: x must have at least 2 dimensions (batch, channel, ...), "
                         f"got x.shape={x.shape}")
    if not isinstance(groups, numbers.Integral):
        raise TypeError(f"{fname}: groups must be a positive int, got {groups!r}")
    if groups < 1:
        raise ValueError(f"{fname}: groups must be a positive int, got {groups!r}")
    n, c = x.shape[:2]
    if c % groups:
        raise ValueError(f"{fname}: x.shape[1]={c} is not divisible by groups={groups}")
    if gamma.shape != (c,) or beta.shape != (c,):
        raise ValueError(f"{fname}: gamma.shape={gamma.shape} and beta.shape={beta.shape} must both "
                         f"be ({c},) for x.shape={x.shape}")
    from kusari.functions.array.reshape import reshape
    from kusari.functions.normalization.batch_normalization import run_promoted
    # An explicit group size (not -1) so that an empty batch reshapes too.
    group_size = utils.size_of_shape(x.shape[1:]) // groups
    expanded = (1, c) + (1,) * (x.ndim - 2)

    def compute(x):
        g, b = utils.cast_like(x, gamma, beta)
        x_hat = Standardize((2,), eps).apply((reshape(x, (n, int(groups), group_size)),))[0]
        return reshape(x_hat, x.shape) * reshape(g, expanded) + reshape(b, expanded)
    return run_promoted(x, gamma, compute)
