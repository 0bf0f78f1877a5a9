"""Nesterov's accelerated gradient, in the reparametrized form of Sutskever et al. (2013)."""
from kusari.optimizers._base import MomentumMethod, MomentumRule


class NesterovAGRule(MomentumRule):
    """Update rule of NesterovAG; state ``v``.

    ``v = momentum * v - lr * grad; param += momentum**2 * v - (1 + momentum) * lr * grad``.
    """

    def update_core(self, param):
        hp = self.hyperparam
        grad = param.grad
        v = self.state["v"]
        v *= hp.momentum
        v -= hp.lr * grad
        data = param.array
        data += hp.momentum * hp.momentum * v
        data -= (1 + hp.momentum) * hp.lr * grad


class NesterovAG(MomentumMethod):
    """Nesterov's accelerated gradient.

    Parameters
    ----------
    lr : float
        Learning rate (default 0.01).
    momentum : float
        Decay of the velocity (default 0.9).
    """

    _rule_class = NesterovAGRule
