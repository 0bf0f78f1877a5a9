"""gaussian: a reparameterized sample mean + exp(ln_var / 2) * eps with eps ~ N(0, 1)."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.variable import as_array


class Gaussian(FunctionNode):
    def __init__(self, eps):
        self.eps = eps

    def forward(self, inputs):
        mean, ln_var = inputs
        utils.check_float("gaussian", "mean", mean)
        utils.check_same_dtype("gaussian", mean=mean, ln_var=ln_var)
        utils.check_same_shape("gaussian", mean=mean, ln_var=ln_var)
        xp = backend.get_array_module(mean)
        if self.eps is None:
            self.eps = xp.random.standard_normal(mean.shape).astype(mean.dtype, copy=False)
        else:
            utils.check_same_dtype("gaussian", mean=mean, eps=self.eps)
            utils.check_same_shape("gaussian", mean=mean, eps=self.eps)
        self.retain_inputs((1,))
        return utils.force_array(mean + xp.exp(ln_var * 0.5) * self.eps),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.math.exponential import exp
        gy = grad_outputs[0]
        ret = []
        if 0 in indexes:
            ret.append(gy)
        if 1 in indexes:
            ln_var, = self.get_retained_inputs()
            ret.append(gy * exp(ln_var * 0.5) * utils.force_array(self.eps * 0.5))
        return tuple(ret)


def gaussian(mean, ln_var, *, eps=None, return_eps=False):
    """Sample from N(mean, exp(ln_var)) as ``mean + exp(ln_var / 2) * eps``, differentiably.

    mean, ln_var: float arrays of one shape and dtype. eps: optional standard-normal noise of
    that shape and dtype (drawn when None). Returns the sample Variable, or ``(y, eps)`` with
    ``return_eps=True``.
    """
    func = Gaussian(None if eps is None else as_array(eps))
    y = func.apply((mean, ln_var))[0]
    return (y, func.eps) if return_eps else y
