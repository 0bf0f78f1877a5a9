"""Shared plumbing of the built-in optimizers: default hyperparameters, zero state, argument checks."""
import math
import numbers

from kusari import backend
from kusari.optimizer import GradientMethod, Hyperparameter, UpdateRule


def make_defaults(**values) -> Hyperparameter:
    """A root Hyperparameter holding an optimizer's default values."""
    hp = Hyperparameter()
    for name, value in values.items():
        setattr(hp, name, value)
    return hp


def _check_hyperparam(owner: str, name: str, value) -> None:
    if isinstance(value, bool) or value is None:
        return
    if not isinstance(value, numbers.Real):
        raise TypeError(f"{owner}: {name} must be a real number, got {type(value).__name__}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{owner}: {name} must be finite and non-negative, got {value!r}")


class BuiltinRule(UpdateRule):
    """An UpdateRule whose hyperparameters default to ``_defaults`` and whose state starts at zero.

    ``_state_names`` lists the state arrays (each shaped like the parameter) that ``init_state``
    creates; keyword arguments left as None inherit from the parent hyperparameter.
    """

    _defaults = Hyperparameter()
    _state_names = ()

    def __init__(self, parent_hyperparam=None, **values):
        super().__init__(parent_hyperparam or self._defaults)
        for name, value in values.items():
            if value is not None:
                _check_hyperparam(type(self).__name__, name, value)
                setattr(self.hyperparam, name, value)

    def init_state(self, param):
        xp = backend.get_array_module(param.array)
        for name in self._state_names:
            self.state[name] = xp.zeros_like(param.array)


class BuiltinMethod(GradientMethod):
    """A GradientMethod whose update rule is ``_rule_class`` sharing this optimizer's hyperparameters."""

    _rule_class = BuiltinRule

    def __init__(self, **values):
        super().__init__()
        for name, value in values.items():
            _check_hyperparam(type(self).__name__, name, value)
            setattr(self.hyperparam, name, value)

    def create_update_rule(self):
        return self._rule_class(self.hyperparam)


class MomentumRule(BuiltinRule):
    """Base of the rules with a velocity ``v`` and hyperparameters ``lr`` and ``momentum``."""

    _defaults = make_defaults(lr=0.01, momentum=0.9)
    _state_names = ("v",)

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam, lr=lr, momentum=momentum)


class MomentumMethod(BuiltinMethod):
    """Base of the optimizers with a learning rate ``lr`` and a velocity decay ``momentum``."""

    _rule_class = MomentumRule

    def __init__(self, lr: float = MomentumRule._defaults.lr, momentum: float = MomentumRule._defaults.momentum):
        super().__init__(lr=lr, momentum=momentum)
