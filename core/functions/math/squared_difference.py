"""squared_difference: elementwise (x1 - x2) ** 2."""
from kusari.functions.math._elementwise import BinaryOp


class SquaredDifference(BinaryOp):
    fname = "squared_difference"

    def compute(self, xp, x1, x2):
        d = x1 - x2
        return d * d

    def grad(self, i, x1, x2, gy):
        g = gy * (x1 - x2) * 2.0
        return g if i == 0 else -g


def squared_difference(x1, x2):
    """Elementwise ``(x1 - x2) ** 2``.

    ``x1``, ``x2``: float arrays of one dtype whose shapes broadcast; returns the broadcast shape.
    """
    return SquaredDifference().apply((x1, x2))[0]
