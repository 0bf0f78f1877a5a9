"""Adam and its variants: AdamW (decoupled weight decay), AMSGrad, AdaBound and AMSBound.

All five share one update rule, :class:`AdamRule`; the variants only switch its flags:

``m += (1-beta1)*(g-m); v += (1-beta2)*(g*g-v); vhat = max(vhat, v) if amsgrad else v;
step = alpha_t / (sqrt(vhat) + eps)`` (clipped to AdaBound's bounds when ``adabound``);
``param -= eta * (step * m + weight_decay_rate * param)``, with the bias-corrected
``alpha_t = alpha * sqrt(1 - beta2**t) / (1 - beta1**t)``.
"""
import math

import numpy

from kusari import backend
from kusari._tuning import ADAM_FLUSH_INTERVAL as FLUSH_INTERVAL
from kusari.optimizers import _fused
from kusari.optimizers._base import BuiltinMethod, BuiltinRule, make_defaults

_default_hyperparam = make_defaults(
    alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8, eta=1.0, weight_decay_rate=0,
    amsgrad=False, adabound=False, final_lr=0.1, gamma=1e-3)
_d = _default_hyperparam


def _flush_subnormals(moment, scratch) -> None:
    """Set the subnormal entries of ``moment`` (Adam's ``m``) to 0, using ``scratch`` (same shape) as
    workspace.

    A gradient that stays 0 (a dead ReLU's weights) decays ``m`` by beta1 per step through float32's
    subnormal range, where every arithmetic op is about a hundred times slower on x86: in DQN's
    CartPole training half of the hidden layer's ``m`` sits there, and Adam took a third of the run.
    A subnormal ``m`` moves its parameter by less than 1e-30, so 0 changes nothing a float32
    parameter of ordinary size can show. The flush runs every :data:`FLUSH_INTERVAL` steps: a decaying
    entry spends about 150 steps in the subnormal range, so it then computes there for at most 16 of
    them, and the three passes of the flush cost 2 % of a Soft Actor-Critic update when run at every
    step. ``v`` is left alone: it decays a hundred times slower, and with ``eps=0`` a flushed ``v``
    beside a small normal ``m`` would divide by zero.
    """
    numpy.abs(moment, out=scratch)
    moment[scratch < numpy.finfo(moment.dtype).tiny] = 0


def _alpha_t(hp, t: int) -> float:
    if t == 0:
        raise RuntimeError("Adam: the bias-corrected learning rate is undefined before the first "
                           "update (t == 0)")
    fix1 = 1.0 - math.pow(hp.beta1, t)
    fix2 = 1.0 - math.pow(hp.beta2, t)
    return hp.alpha * math.sqrt(fix2) / fix1


class AdamRule(BuiltinRule):
    """Update rule of Adam and its variants; states ``m``, ``v`` and, with ``amsgrad``, ``vhat``."""

    _defaults = _default_hyperparam

    def __init__(self, parent_hyperparam=None, alpha=None, beta1=None, beta2=None, eps=None,
                 eta=None, weight_decay_rate=None, amsgrad=None, adabound=None, final_lr=None,
                 gamma=None):
        super().__init__(parent_hyperparam, alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                         eta=eta, weight_decay_rate=weight_decay_rate, amsgrad=amsgrad,
                         adabound=adabound, final_lr=final_lr, gamma=gamma)
        # AdaBound's final_lr follows later changes of alpha (by schedules) proportionally.
        self.initial_alpha = self.hyperparam.alpha

    def init_state(self, param):
        xp = backend.get_array_module(param.array)
        self.state["m"] = xp.zeros_like(param.array)
        self.state["v"] = xp.zeros_like(param.array)
        if self.hyperparam.amsgrad:
            self.state["vhat"] = xp.zeros_like(param.array)

    @property
    def alpha_t(self) -> float:
        """The bias-corrected step size at the current step ``t``."""
        return _alpha_t(self.hyperparam, self.t)

    @property
    def lr(self) -> float:
        """Chainer's older name of :attr:`alpha_t`."""
        return self.alpha_t

    @property
    def bounds(self):
        """AdaBound's (lower, upper) clipping bounds of the per-element step at step ``t``."""
        if self.t == 0:
            raise RuntimeError("AdamRule.bounds: undefined before the first update (t == 0)")
        hp = self.hyperparam
        final_lr = hp.final_lr * hp.alpha / self.initial_alpha
        lower = final_lr * (1.0 - 1.0 / (hp.gamma * self.t + 1))
        upper = final_lr * (1.0 + 1.0 / (hp.gamma * self.t))
        return lower, upper

    def update_core(self, param):
        hp = self.hyperparam
        data, grad = param.array, param.grad
        if hp.eps != 0 and data.dtype.type(hp.eps) == 0:
            raise ValueError(f"AdamRule: eps={hp.eps} underflows to 0 in the parameter's dtype "
                             f"{data.dtype} (parameter {param.name!r})")
        xp = backend.get_array_module(data)
        m, v = self.state["m"], self.state["v"]
        # One scratch array, reused in place: each temporary of a large parameter would cost an
        # allocation and its page faults. The arithmetic is the textbook expressions', op for op.
        t = xp.subtract(grad, m, out=xp.empty_like(m))    # an array also for 0-d parameters
        t *= 1 - hp.beta1
        m += t
        if xp is numpy and self.t % FLUSH_INTERVAL == 0:
            _flush_subnormals(m, t)
        xp.multiply(grad, grad, out=t)
        t -= v
        t *= 1 - hp.beta2
        v += t
        vhat = v
        if hp.amsgrad:
            vhat = self.state["vhat"]
            xp.maximum(vhat, v, out=vhat)
        xp.sqrt(vhat, out=t)
        t += hp.eps
        xp.divide(self.alpha_t, t, out=t)            # the per-element step size
        if hp.adabound:
            lower, upper = self.bounds
            xp.clip(t, lower, upper, out=t)
        t *= m
        if hp.weight_decay_rate != 0:
            t += hp.weight_decay_rate * data
        if hp.eta != 1:   # a pass fewer when no schedule scales the step (x * 1.0 is x)
            t *= hp.eta
        data -= t


class Adam(BuiltinMethod):
    """Adam (Kingma & Ba, 2015), with decoupled weight decay, AMSGrad and AdaBound options.

    Parameters
    ----------
    alpha : float
        Step size (before bias correction).
    beta1, beta2 : float
        Decay of the first and second moment estimates.
    eps : float
        Added to the denominator for numerical stability.
    eta : float
        Schedule multiplier of the whole step (for warm restarts).
    weight_decay_rate : float
        Decoupled weight decay (AdamW, Loshchilov & Hutter).
    amsgrad : bool
        Use the running maximum of the second moment (Reddi et al., 2018).
    adabound : bool
        Clip the per-element step into bounds converging to ``final_lr`` (Luo et al., 2019).
    final_lr : float
        AdaBound's final (SGD) learning rate.
    gamma : float
        AdaBound's convergence speed of the bounds.
    """

    _rule_class = AdamRule
    _fused_update = _fused.adam_update   # GPU parameters: one launch for all (kusari.optimizers._fused)

    def __init__(self, alpha: float = _d.alpha, beta1: float = _d.beta1, beta2: float = _d.beta2,
                 eps: float = _d.eps, eta: float = _d.eta,
                 weight_decay_rate: float = _d.weight_decay_rate, amsgrad: bool = _d.amsgrad,
                 adabound: bool = _d.adabound, final_lr: float = _d.final_lr,
                 gamma: float = _d.gamma):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         weight_decay_rate=weight_decay_rate, amsgrad=amsgrad, adabound=adabound,
                         final_lr=final_lr, gamma=gamma)

    @property
    def alpha_t(self) -> float:
        """The bias-corrected step size at the optimizer's step ``t``."""
        return _alpha_t(self.hyperparam, self.t)

    @property
    def lr(self) -> float:
        """Chainer's older name of :attr:`alpha_t`."""
        return self.alpha_t


class AdamW(Adam):
    """Adam with decoupled weight decay (``weight_decay_rate``); see :class:`Adam`."""

    def __init__(self, alpha: float = _d.alpha, beta1: float = _d.beta1, beta2: float = _d.beta2,
                 eps: float = _d.eps, eta: float = _d.eta,
                 weight_decay_rate: float = _d.weight_decay_rate):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         weight_decay_rate=weight_decay_rate)


class AMSGrad(Adam):
    """Adam with ``amsgrad=True``; see :class:`Adam`."""

    def __init__(self, alpha: float = _d.alpha, beta1: float = _d.beta1, beta2: float = _d.beta2,
                 eps: float = _d.eps, eta: float = _d.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta, amsgrad=True)


class AdaBound(Adam):
    """Adam with ``adabound=True``; see :class:`Adam`."""

    def __init__(self, alpha: float = _d.alpha, beta1: float = _d.beta1, beta2: float = _d.beta2,
                 final_lr: float = _d.final_lr, gamma: float = _d.gamma, eps: float = _d.eps,
                 eta: float = _d.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         adabound=True, final_lr=final_lr, gamma=gamma)


class AMSBound(Adam):
    """Adam with ``amsgrad=True`` and ``adabound=True``; see :class:`Adam`."""

    def __init__(self, alpha: float = _d.alpha, beta1: float = _d.beta1, beta2: float = _d.beta2,
                 final_lr: float = _d.final_lr, gamma: float = _d.gamma, eps: float = _d.eps,
                 eta: float = _d.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         amsgrad=True, adabound=True, final_lr=final_lr, gamma=gamma)
