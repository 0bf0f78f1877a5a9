"""Layer-wise adaptive rate scaling (LARS, You et al., 2017) applied to the gradient."""
from kusari import backend
from kusari.optimizer_hooks._base import ParamHook, check_real


class GradientLARS(ParamHook):
    """Scale each parameter's ``grad + weight_decay * param`` by its local rate.

    ``local = ||p|| / (eps + ||g|| + weight_decay * ||p||)``; the rate is ``local`` where it exceeds
    ``threshold``, else 1: ``grad = rate * (grad + weight_decay * param)``.

    Parameters
    ----------
    threshold : float
        Local rates at or below this are not applied.
    weight_decay : float
        Coefficient of the weight decay folded into the gradient.
    eps : float
        Added to the denominator for numerical stability.
    """

    name = "GradientLARS"

    def __init__(self, threshold: float = 1e-2, weight_decay: float = 0.0, eps: float = 1e-9):
        check_real("GradientLARS", "threshold", threshold)
        check_real("GradientLARS", "weight_decay", weight_decay)
        check_real("GradientLARS", "eps", eps)
        self.threshold = threshold
        self.weight_decay = weight_decay
        self.eps = eps

    def apply(self, rule, param):
        p, grad = param.array, param.grad
        xp = backend.get_array_module(p)
        p_norm = xp.linalg.norm(p)
        g_norm = xp.linalg.norm(grad)
        local_rate = p_norm / (self.eps + g_norm + self.weight_decay * p_norm)
        rate = xp.where(local_rate > self.threshold, local_rate, 1)
        if self.weight_decay != 0:
            grad += self.weight_decay * p
        grad *= rate
