"""Element-wise gradient clipping into ``[lower_bound, upper_bound]``."""
from kusari import backend
from kusari.optimizer_hooks._base import ParamHook, check_real


class GradientHardClipping(ParamHook):
    """Clip every gradient element into ``[lower_bound, upper_bound]``.

    Parameters
    ----------
    lower_bound, upper_bound : float
        The bounds; ``lower_bound <= upper_bound``.
    """

    name = "GradientHardClipping"

    def __init__(self, lower_bound: float, upper_bound: float):
        check_real("GradientHardClipping", "lower_bound", lower_bound, nonnegative=False)
        check_real("GradientHardClipping", "upper_bound", upper_bound, nonnegative=False)
        if lower_bound > upper_bound:
            raise ValueError(f"GradientHardClipping: lower_bound={lower_bound} is greater than "
                             f"upper_bound={upper_bound}")
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def apply(self, rule, param):
        xp = backend.get_array_module(param.array)
        grad = param.grad
        xp.clip(grad, self.lower_bound, self.upper_bound, out=grad)
