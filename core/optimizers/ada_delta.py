"""AdaDelta (Zeiler, 2012): step sizes from running averages of squared gradients and squared steps."""
from kusari import backend
from kusari.optimizers._base import BuiltinMethod, BuiltinRule, make_defaults

_default_hyperparam = make_defaults(rho=0.95, eps=1e-6)


class AdaDeltaRule(BuiltinRule):
    """Update rule of AdaDelta; states ``msg`` (mean squared gradient) and ``msdx`` (mean squared step).

    ``msg = rho*msg + (1-rho)*g**2; dx = sqrt((msdx+eps)/(msg+eps))*g; msdx = rho*msdx + (1-rho)*dx**2;
    param -= dx``.
    """

    _defaults = _default_hyperparam
    _state_names = ("msg", "msdx")

    def __init__(self, parent_hyperparam=None, rho=None, eps=None):
        super().__init__(parent_hyperparam, rho=rho, eps=eps)

    def update_core(self, param):
        hp = self.hyperparam
        xp = backend.get_array_module(param.array)
        grad = param.grad
        msg, msdx = self.state["msg"], self.state["msdx"]
        msg *= hp.rho
        msg += (1 - hp.rho) * grad * grad
        dx = xp.sqrt((msdx + hp.eps) / (msg + hp.eps))
        dx *= grad
        msdx *= hp.rho
        msdx += (1 - hp.rho) * dx * dx
        data = param.array
        data -= dx


class AdaDelta(BuiltinMethod):
    """AdaDelta.

    Parameters
    ----------
    rho : float
        Decay of the running averages.
    eps : float
        Added inside the square roots for numerical stability.
    """

    _rule_class = AdaDeltaRule

    def __init__(self, rho: float = _default_hyperparam.rho, eps: float = _default_hyperparam.eps):
        super().__init__(rho=rho, eps=eps)
