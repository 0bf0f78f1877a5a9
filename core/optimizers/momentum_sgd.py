"""Momentum SGD: ``v = momentum * v - lr * grad; param += v``."""
from kusari.optimizers import _fused
from kusari.optimizers._base import MomentumMethod, MomentumRule


class MomentumSGDRule(MomentumRule):
    """Update rule of momentum SGD (see :class:`MomentumSGD`); state ``v`` (velocity)."""

    def update_core(self, param):
        hp = self.hyperparam
        v = self.state["v"]
        v *= hp.momentum
        v -= hp.lr * param.grad
        data = param.array
        data += v


class MomentumSGD(MomentumMethod):
    """Classical momentum SGD.

    Parameters
    ----------
    lr : float
        Learning rate (default 0.01).
    momentum : float
        Decay of the velocity (default 0.9).
    """

    _rule_class = MomentumSGDRule
    _fused_update = _fused.momentum_sgd_update   # GPU parameters: one launch for all
