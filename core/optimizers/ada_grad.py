"""AdaGrad: ``h += grad**2; param -= lr * grad / (sqrt(h) + eps)`` (Duchi et al., 2011)."""
from kusari import backend
from kusari.optimizers._base import BuiltinMethod, BuiltinRule, make_defaults

_default_hyperparam = make_defaults(lr=0.001, eps=1e-8)


class AdaGradRule(BuiltinRule):
    """Update rule of AdaGrad; state ``h`` (sum of squared gradients)."""

    _defaults = _default_hyperparam
    _state_names = ("h",)

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, eps=eps)

    def update_core(self, param):
        hp = self.hyperparam
        xp = backend.get_array_module(param.array)
        grad = param.grad
        h = self.state["h"]
        h += grad * grad
        data = param.array
        data -= hp.lr * grad / (xp.sqrt(h) + hp.eps)


class AdaGrad(BuiltinMethod):
    """AdaGrad.

    Parameters
    ----------
    lr : float
        Learning rate.
    eps : float
        Added to the denominator for numerical stability.
    """

    _rule_class = AdaGradRule

    def __init__(self, lr: float = _default_hyperparam.lr, eps: float = _default_hyperparam.eps):
        super().__init__(lr=lr, eps=eps)
