"""SMORMS3 (Simon Funk, 2015): RMSprop with an adaptive averaging window per element."""
from kusari import backend
from kusari.optimizers._base import BuiltinMethod, BuiltinRule, make_defaults

_default_hyperparam = make_defaults(lr=0.001, eps=1e-16)


class SMORMS3Rule(BuiltinRule):
    """Update rule of SMORMS3; states ``mem`` (window memory, starts at 1), ``g`` and ``g2``.

    ``r = 1/(mem+1); g = (1-r)*g + r*grad; g2 = (1-r)*g2 + r*grad**2; x = g**2/(g2+eps);
    param -= grad * min(x, lr) / (sqrt(g2) + eps); mem = 1 + mem*(1-x)``.
    """

    _defaults = _default_hyperparam
    _state_names = ("mem", "g", "g2")

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, eps=eps)

    def init_state(self, param):
        super().init_state(param)
        self.state["mem"] += 1

    def update_core(self, param):
        hp = self.hyperparam
        xp = backend.get_array_module(param.array)
        grad = param.grad
        mem, g, g2 = self.state["mem"], self.state["g"], self.state["g2"]
        r = 1 / (mem + 1)
        g += r * (grad - g)
        g2 += r * (grad * grad - g2)
        x = g * g / (g2 + hp.eps)
        data = param.array
        data -= grad * xp.minimum(x, hp.lr) / (xp.sqrt(g2) + hp.eps)
        mem *= 1 - x
        mem += 1


class SMORMS3(BuiltinMethod):
    """SMORMS3.

    Parameters
    ----------
    lr : float
        Learning rate (upper bound of the per-element step factor).
    eps : float
        Added to the denominators for numerical stability.
    """

    _rule_class = SMORMS3Rule

    def __init__(self, lr: float = _default_hyperparam.lr, eps: float = _default_hyperparam.eps):
        super().__init__(lr=lr, eps=eps)
