"""layer_normalization: normalize each sample over its trailing (feature) axes, then scale and shift."""
from kusari import utils
from kusari.functions.normalization._standardize import Standardize


def layer_normalization(x, gamma, beta, eps=1e-5):
    """Layer normalization (Ba et al., 2016).

    x: (N, D) as in Chainer, or more generally (..., *gamma.shape); gamma, beta: the trailing
    shape of x. Each sample is normalized over the trailing ``gamma.ndim`` axes, then
    ``y = gamma * x_hat + beta``. An empty batch gives an empty output.
    Returns a Variable of x's shape.
    """
    fname = "layer_normalization"
    utils.check_float(fname, "x", x)
    utils.check_same_dtype(fname, x=x, gamma=gamma, beta=beta)
    if gamma.shape != beta.shape:
        raise ValueError(f"{fname}: gamma.shape={gamma.shape} does not match beta.shape={beta.shape}")
    k = gamma.ndim
    if k == 0 or x.ndim <= k or tuple(x.shape[x.ndim - k:]) != gamma.shape:
        raise ValueError(f"{fname}: x.shape={x.shape} must be (batch..., *gamma.shape) with "
                         f"gamma.shape={gamma.shape}")
    x_hat = Standardize(tuple(range(x.ndim - k, x.ndim)), eps).apply((x,))[0]
    return x_hat * gamma + beta
