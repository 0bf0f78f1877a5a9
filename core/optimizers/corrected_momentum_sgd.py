"""Momentum SGD with the learning rate outside the velocity: ``v = momentum * v - grad; param += lr * v``.

Changing ``lr`` during training then rescales the whole step at once (Goyal et al., 2017).
"""
from kusari.optimizers._base import MomentumMethod, MomentumRule


class CorrectedMomentumSGDRule(MomentumRule):
    """Update rule of corrected momentum SGD (see :class:`CorrectedMomentumSGD`); state ``v``."""

    def update_core(self, param):
        hp = self.hyperparam
        v = self.state["v"]
        v *= hp.momentum
        v -= param.grad
        data = param.array
        data += hp.lr * v


class CorrectedMomentumSGD(MomentumMethod):
    """Momentum SGD whose velocity accumulates raw gradients (see the module docstring).

    Parameters
    ----------
    lr : float
        Learning rate (default 0.01).
    momentum : float
        Decay of the velocity (default 0.9).
    """

    _rule_class = CorrectedMomentumSGDRule
