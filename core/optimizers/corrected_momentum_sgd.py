"""Momentum SGD with the learning rate outside the velocity: ``v = momentum * v - grad; param += lr * v``.

Changing ``lr`` during training then rescales the whole step at once (Goyal et al., 2017).
"""
from kusari.optimizers._base import BuiltinMethod, BuiltinRule, make_defaults

_default_hyperparam = make_defaults(lr=0.01, momentum=0.9)


class CorrectedMomentumSGDRule(BuiltinRule):
    """Update rule of corrected momentum SGD (see :class:`CorrectedMomentumSGD`); state ``v``."""

    _defaults = _default_hyperparam
    _state_names = ("v",)

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam, lr=lr, momentum=momentum)

    def update_core(self, param):
        hp = self.hyperparam
        v = self.state["v"]
        v *= hp.momentum
        v -= param.grad
        data = param.array
        data += hp.lr * v


class CorrectedMomentumSGD(BuiltinMethod):
    """Momentum SGD whose velocity accumulates raw gradients (see the module docstring).

    Parameters
    ----------
    lr : float
        Learning rate.
    momentum : float
        Decay of the velocity.
    """

    _rule_class = CorrectedMomentumSGDRule

    def __init__(self, lr: float = _default_hyperparam.lr,
                 momentum: float = _default_hyperparam.momentum):
        super().__init__(lr=lr, momentum=momentum)
