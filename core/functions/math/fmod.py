"""fmod: elementwise remainder of division, with the sign of the dividend (C's fmod)."""
from kusari import backend
from kusari.functions.math._elementwise import BinaryOp


class Fmod(BinaryOp):
    fname = "fmod"
    argnames = ("x", "divisor")

    def compute(self, xp, x, divisor):
        return xp.fmod(x, divisor)

    def grad(self, i, x, divisor, gy):
        if i == 0:
            return gy
        xp = backend.get_array_module(x.array)
        quotient = xp.fix(x.array / divisor.array)
        return gy * -quotient


def fmod(x, divisor):
    """Elementwise ``x - fix(x / divisor) * divisor``.

    ``x``, ``divisor``: float arrays of one dtype whose shapes broadcast; returns the broadcast
    shape.
    """
    return Fmod().apply((x, divisor))[0]
