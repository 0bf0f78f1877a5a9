"""ceil, floor and fix: elementwise rounding, with no gradient (piecewise constant)."""
from kusari.functions.math._elementwise import elementwise_without_gradient


def ceil(x):
    """Elementwise smallest integer >= ``x``, in ``x``'s dtype; a Variable with no gradient path."""
    return elementwise_without_gradient("ceil", "ceil", x)


def floor(x):
    """Elementwise largest integer <= ``x``, in ``x``'s dtype; a Variable with no gradient path."""
    return elementwise_without_gradient("floor", "floor", x)


def fix(x):
    """Elementwise rounding toward zero, in ``x``'s dtype; a Variable with no gradient path."""
    return elementwise_without_gradient("fix", "fix", x)
