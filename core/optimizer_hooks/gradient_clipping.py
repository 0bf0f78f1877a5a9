"""Gradient clipping by the global L2 norm."""
import math

from kusari import backend
from kusari.optimizer_hooks._base import check_real


def _sum_sqnorm(grads) -> float:
    total = 0.0
    for g in grads:
        xp = backend.get_array_module(g)
        flat = g.ravel()
        total += float(xp.dot(flat, flat))
    return total


class GradientClipping:
    """Rescale gradients so that their L2 norm is at most ``threshold``.

    Registered on an optimizer (``optimizer.add_hook``) the norm is the global one over all
    parameters; on one parameter's rule (``param.update_rule.add_hook``) it is that parameter's.
    Every gradient is multiplied by ``threshold / norm`` when that is below 1.

    Parameters
    ----------
    threshold : float
        The largest allowed norm.
    """

    name = "GradientClipping"
    timing = "pre"

    def __init__(self, threshold: float):
        check_real("GradientClipping", "threshold", threshold)
        self.threshold = threshold

    def __call__(self, opt_or_rule, param=None):
        if param is None:
            params = [p for p in opt_or_rule.target.params() if p.grad is not None]
        else:
            params = [] if param.grad is None else [param]
        norm = math.sqrt(_sum_sqnorm(p.grad for p in params))
        if norm == 0:
            return
        rate = self.threshold / norm
        if rate < 1:
            for p in params:
                g = p.grad
                g *= rate
