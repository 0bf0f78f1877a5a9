"""L1 regularization as a hook: ``grad += rate * sign(param)``."""
from kusari import backend
from kusari.optimizer_hooks._base import ParamHook, check_real


class Lasso(ParamHook):
    """Add ``rate * sign(param)`` to each gradient (a subgradient of ``rate * |param|_1``).

    Parameters
    ----------
    rate : float
        Coefficient of the penalty.
    """

    name = "Lasso"

    def __init__(self, rate: float):
        check_real("Lasso", "rate", rate)
        self.rate = rate

    def apply(self, rule, param):
        xp = backend.get_array_module(param.array)
        grad = param.grad
        grad += self.rate * xp.sign(param.array)
