"""M-SVAG (Balles & Hennig, 2018): momentum SGD whose step is damped by the estimated gradient variance."""
import numpy

from kusari import backend
from kusari.optimizers._base import BuiltinMethod, BuiltinRule, make_defaults

_default_hyperparam = make_defaults(lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0)


class MSVAGRule(BuiltinRule):
    """Update rule of M-SVAG; states ``m`` and ``v`` (moving averages of g and g**2).

    With bias-corrected ``mt, vt``, ``rho = min((1-b)**2 (1-b**2t) / ((1-b**t)**2 (1-b**2)), 0.9999)``,
    ``s = (vt - mt**2) / (1 - rho)`` and ``factor = clip(mt**2 / (mt**2 + rho*s), 0, 1)`` (0 where
    undefined): ``param -= eta * (lr * factor * mt + weight_decay_rate * param)``.
    """

    _defaults = _default_hyperparam
    _state_names = ("m", "v")

    def __init__(self, parent_hyperparam=None, lr=None, beta=None, eta=None,
                 weight_decay_rate=None):
        super().__init__(parent_hyperparam, lr=lr, beta=beta, eta=eta,
                         weight_decay_rate=weight_decay_rate)

    def update_core(self, param):
        hp = self.hyperparam
        data, grad = param.array, param.grad
        xp = backend.get_array_module(data)
        beta_power = hp.beta ** self.t
        rho = ((1.0 - hp.beta) ** 2 * (1.0 - beta_power ** 2)
               / ((1.0 - beta_power) ** 2 * (1.0 - hp.beta ** 2)))
        rho = min(rho, 0.9999)
        m, v = self.state["m"], self.state["v"]
        m += (1 - hp.beta) * (grad - m)
        v += (1 - hp.beta) * (grad * grad - v)
        mt = m / (1 - beta_power)
        vt = v / (1 - beta_power)
        mt2 = mt * mt
        s = (vt - mt2) / (1 - rho)
        with numpy.errstate(divide="ignore", invalid="ignore"):
            factor = mt2 / (mt2 + rho * s)
        factor = xp.clip(xp.where(xp.isnan(factor), 0, factor), 0, 1)
        step = hp.lr * factor * mt
        if hp.weight_decay_rate != 0:
            step = step + hp.weight_decay_rate * data
        data -= hp.eta * step


class MSVAG(BuiltinMethod):
    """M-SVAG.

    Parameters
    ----------
    lr : float
        Learning rate.
    beta : float
        Decay of the first and second moment estimates.
    eta : float
        Schedule multiplier of the whole step.
    weight_decay_rate : float
        Decoupled weight decay.
    """

    _rule_class = MSVAGRule

    def __init__(self, lr: float = _default_hyperparam.lr, beta: float = _default_hyperparam.beta,
                 eta: float = _default_hyperparam.eta,
                 weight_decay_rate: float = _default_hyperparam.weight_decay_rate):
        super().__init__(lr=lr, beta=beta, eta=eta, weight_decay_rate=weight_decay_rate)
