"""Momentum SGD: ``v = momentum * v - lr * grad; param += v``."""
from kusari.optimizers._base import BuiltinMethod, BuiltinRule, make_defaults

_default_hyperparam = make_defaults(lr=0.01, momentum=0.9)


class MomentumSGDRule(BuiltinRule):
    """Update rule of momentum SGD (see :class:`MomentumSGD`); state ``v`` (velocity)."""

    _defaults = _default_hyperparam
    _state_names = ("v",)

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam, lr=lr, momentum=momentum)

    def update_core(self, param):
        hp = self.hyperparam
        v = self.state["v"]
        v *= hp.momentum
        v -= hp.lr * param.grad
        data = param.array
        data += v


class MomentumSGD(BuiltinMethod):
    """Classical momentum SGD.

    Parameters
    ----------
    lr : float
        Learning rate.
    momentum : float
        Decay of the velocity.
    """

    _rule_class = MomentumSGDRule

    def __init__(self, lr: float = _default_hyperparam.lr,
                 momentum: float = _default_hyperparam.momentum):
        super().__init__(lr=lr, momentum=momentum)
