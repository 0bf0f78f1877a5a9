"""maximum and minimum: elementwise larger or smaller of two arrays."""
from kusari.functions.math._elementwise import BinaryOp


class _Extremum(BinaryOp):
    """The gradient goes to ``x1`` where ``_x1_wins(x1, x2)`` holds, to ``x2`` elsewhere."""

    def grad(self, i, x1, x2, gy):
        wins = self._x1_wins(x1.array, x2.array)
        chosen = wins if i == 0 else ~wins
        return gy * chosen.astype(gy.dtype)


class Maximum(_Extremum):
    fname = "maximum"

    def compute(self, xp, x1, x2):
        return xp.maximum(x1, x2)

    @staticmethod
    def _x1_wins(x1, x2):
        return x1 >= x2


class Minimum(_Extremum):
    fname = "minimum"

    def compute(self, xp, x1, x2):
        return xp.minimum(x1, x2)

    @staticmethod
    def _x1_wins(x1, x2):
        return x1 <= x2


def maximum(x1, x2):
    """Elementwise maximum; ``x1``, ``x2``: float arrays of one dtype whose shapes broadcast.

    Returns the broadcast shape. On ties the gradient goes to ``x1``.
    """
    return Maximum().apply((x1, x2))[0]


def minimum(x1, x2):
    """Elementwise minimum; ``x1``, ``x2``: float arrays of one dtype whose shapes broadcast.

    Returns the broadcast shape. On ties the gradient goes to ``x1``.
    """
    return Minimum().apply((x1, x2))[0]
