"""sinh, cosh and arctanh: hyperbolic functions."""
from kusari.functions.math._elementwise import UnaryOp


class Sinh(UnaryOp):
    fname = "sinh"
    retain = ("x",)

    def compute(self, xp, x):
        return xp.sinh(x)

    def grad(self, x, y, gy):
        return gy * cosh(x)


class Cosh(UnaryOp):
    fname = "cosh"
    retain = ("x",)

    def compute(self, xp, x):
        return xp.cosh(x)

    def grad(self, x, y, gy):
        return gy * sinh(x)


class Arctanh(UnaryOp):
    fname = "arctanh"
    retain = ("x",)

    def compute(self, xp, x):
        return xp.arctanh(x)

    def grad(self, x, y, gy):
        return gy / (1.0 - x * x)


def sinh(x):
    """Elementwise hyperbolic sine; ``x``: float array of any shape, returns the same shape."""
    return Sinh().apply((x,))[0]


def cosh(x):
    """Elementwise hyperbolic cosine; ``x``: float array of any shape, returns the same shape."""
    return Cosh().apply((x,))[0]


def arctanh(x):
    """Elementwise inverse hyperbolic tangent; ``x``: float array in (-1, 1), returns the same shape."""
    return Arctanh().apply((x,))[0]
