"""Nesterov's accelerated gradient, in the reparametrized form of Sutskever et al. (2013)."""
from kusari.optimizers._base import BuiltinMethod, BuiltinRule, make_defaults

_default_hyperparam = make_defaults(lr=0.01, momentum=0.9)


class NesterovAGRule(BuiltinRule):
    """Update rule of NesterovAG; state ``v``.

    ``v = momentum * v - lr * grad; param += momentum**2 * v - (1 + momentum) * lr * grad``.
    """

    _defaults = _default_hyperparam
    _state_names = ("v",)

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam, lr=lr, momentum=momentum)

    def update_core(self, param):
        hp = self.hyperparam
        grad = param.grad
        v = self.state["v"]
        v *= hp.momentum
        v -= hp.lr * grad
        data = param.array
        data += hp.momentum * hp.momentum * v
        data -= (1 + hp.momentum) * hp.lr * grad


class NesterovAG(BuiltinMethod):
    """Nesterov's accelerated gradient.

    Parameters
    ----------
    lr : float
        Learning rate.
    momentum : float
        Decay of the velocity.
    """

    _rule_class = NesterovAGRule

    def __init__(self, lr: float = _default_hyperparam.lr,
                 momentum: float = _default_hyperparam.momentum):
        super().__init__(lr=lr, momentum=momentum)
