"""Alex Graves's RMSprop (arXiv:1308.0850): centred second moment plus momentum."""
from kusari import backend
from kusari.optimizers._base import BuiltinMethod, BuiltinRule, make_defaults

_default_hyperparam = make_defaults(lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4)


class RMSpropGravesRule(BuiltinRule):
    """Update rule of RMSpropGraves; states ``n`` (mean g**2), ``g`` (mean g) and ``delta`` (step).

    ``delta = momentum*delta - lr * grad / sqrt(n - g**2 + eps); param += delta``.
    """

    _defaults = _default_hyperparam
    _state_names = ("n", "g", "delta")

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None, momentum=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, alpha=alpha, momentum=momentum, eps=eps)

    def update_core(self, param):
        hp = self.hyperparam
        xp = backend.get_array_module(param.array)
        grad = param.grad
        n, g, delta = self.state["n"], self.state["g"], self.state["delta"]
        n *= hp.alpha
        n += (1 - hp.alpha) * grad * grad
        g *= hp.alpha
        g += (1 - hp.alpha) * grad
        delta *= hp.momentum
        delta -= hp.lr * grad / xp.sqrt(n - g * g + hp.eps)
        data = param.array
        data += delta


class RMSpropGraves(BuiltinMethod):
    """RMSprop as in Graves (2013).

    Parameters
    ----------
    lr : float
        Learning rate.
    alpha : float
        Decay of the first and second moment averages.
    momentum : float
        Decay of the step.
    eps : float
        Added inside the square root for numerical stability.
    """

    _rule_class = RMSpropGravesRule

    def __init__(self, lr: float = _default_hyperparam.lr, alpha: float = _default_hyperparam.alpha,
                 momentum: float = _default_hyperparam.momentum,
                 eps: float = _default_hyperparam.eps):
        super().__init__(lr=lr, alpha=alpha, momentum=momentum, eps=eps)
