"""L2 regularization as a hook: ``grad += rate * param``."""
from kusari.optimizer_hooks._base import ParamHook, check_real


class WeightDecay(ParamHook):
    """Add ``rate * param`` to each gradient (the gradient of ``rate/2 * ||param||**2``).

    Parameters
    ----------
    rate : float
        Coefficient of the decay.
    """

    name = "WeightDecay"

    def __init__(self, rate: float):
        check_real("WeightDecay", "rate", rate)
        self.rate = rate

    def apply(self, rule, param):
        grad = param.grad
        grad += self.rate * param.array
