"""sqrt and rsqrt: elementwise square root and its reciprocal."""
from kusari.functions.math._elementwise import UnaryOp


class Sqrt(UnaryOp):
    fname = "sqrt"
    retain = ("y",)

    def compute(self, xp, x):
        return xp.sqrt(x)

    def grad(self, x, y, gy):
        return gy / (y * 2.0)


class Rsqrt(UnaryOp):
    fname = "rsqrt"
    retain = ("y",)

    def compute(self, xp, x):
        return xp.reciprocal(xp.sqrt(x))

    def grad(self, x, y, gy):
        return gy * (y * y * y) * -0.5


def sqrt(x):
    """Elementwise square root; ``x``: non-negative float array, returns the same shape."""
    return Sqrt().apply((x,))[0]


def rsqrt(x):
    """Elementwise ``1 / sqrt(x)``; ``x``: positive float array, returns the same shape."""
    return Rsqrt().apply((x,))[0]
