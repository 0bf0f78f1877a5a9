"""RMSprop (Tieleman & Hinton, 2012): divide the gradient by a running RMS of recent gradients."""
from kusari import backend
from kusari.optimizers._base import BuiltinMethod, BuiltinRule, make_defaults

_default_hyperparam = make_defaults(lr=0.01, alpha=0.99, eps=1e-8, eps_inside_sqrt=False)


class RMSpropRule(BuiltinRule):
    """Update rule of RMSprop; state ``ms`` (mean squared gradient).

    ``ms = alpha*ms + (1-alpha)*g**2; param -= lr * g / (sqrt(ms) + eps)``, or ``sqrt(ms + eps)`` when
    ``eps_inside_sqrt``.
    """

    _defaults = _default_hyperparam
    _state_names = ("ms",)

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None, eps=None,
                 eps_inside_sqrt=None):
        super().__init__(parent_hyperparam, lr=lr, alpha=alpha, eps=eps,
                         eps_inside_sqrt=eps_inside_sqrt)

    def update_core(self, param):
        hp = self.hyperparam
        xp = backend.get_array_module(param.array)
        grad = param.grad
        ms = self.state["ms"]
        ms *= hp.alpha
        ms += (1 - hp.alpha) * grad * grad
        denom = xp.sqrt(ms + hp.eps) if hp.eps_inside_sqrt else xp.sqrt(ms) + hp.eps
        data = param.array
        data -= hp.lr * grad / denom


class RMSprop(BuiltinMethod):
    """RMSprop.

    Parameters
    ----------
    lr : float
        Learning rate.
    alpha : float
        Decay of the mean squared gradient.
    eps : float
        Added to the denominator for numerical stability.
    eps_inside_sqrt : bool
        Add ``eps`` inside the square root instead of after it.
    """

    _rule_class = RMSpropRule

    def __init__(self, lr: float = _default_hyperparam.lr, alpha: float = _default_hyperparam.alpha,
                 eps: float = _default_hyperparam.eps,
                 eps_inside_sqrt: bool = _default_hyperparam.eps_inside_sqrt):
        super().__init__(lr=lr, alpha=alpha, eps=eps, eps_inside_sqrt=eps_inside_sqrt)
