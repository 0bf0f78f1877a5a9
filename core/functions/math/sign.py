"""sign: elementwise -1, 0 or 1, with no gradient (piecewise constant)."""
from kusari.functions.math._elementwise import elementwise_without_gradient


def sign(x):
    """Elementwise sign of ``x`` (-1, 0 or 1) in ``x``'s dtype; a Variable with no gradient path."""
    return elementwise_without_gradient("sign", "sign", x)
