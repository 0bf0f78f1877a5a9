"""Plain stochastic gradient descent: ``param -= lr * grad``."""
from kusari import utils
from kusari.optimizers._base import BuiltinMethod, BuiltinRule, make_defaults

_default_hyperparam = make_defaults(lr=0.01)


class SGDRule(BuiltinRule):
    """Update rule of SGD (see :class:`SGD`)."""

    _defaults = _default_hyperparam

    def __init__(self, parent_hyperparam=None, lr=None):
        super().__init__(parent_hyperparam, lr=lr)

    def update_core(self, param):
        grad = param._grad_var._data
        param._data -= grad * utils.scalar_operand(self.hyperparam.lr, grad)


class SGD(BuiltinMethod):
    """Stochastic gradient descent.

    Parameters
    ----------
    lr : float
        Learning rate.
    """

    _rule_class = SGDRule

    def __init__(self, lr: float = _default_hyperparam.lr):
        super().__init__(lr=lr)
