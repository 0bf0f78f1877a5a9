"""selu: the scaled exponential linear unit, scale * elu(x, alpha)."""
from kusari.functions.activation.elu import ELU


def selu(x, alpha=1.6732632423543772848170429916717, scale=1.0507009873554804934193349852946):
    """Scaled ELU: ``scale * x`` where ``x > 0``, ``scale * alpha * (exp(x) - 1)`` elsewhere.

    The defaults are the self-normalizing constants of Klambauer et al. (2017).
    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return ELU(float(alpha), float(scale), "selu").apply((x,))[0]
