"""sin, cos, tan, arcsin, arccos, arctan and arctan2: trigonometric functions and their inverses."""
from kusari.functions.math._elementwise import BinaryOp, UnaryOp
from kusari.functions.math.sqrt import sqrt


class Sin(UnaryOp):
    fname = "sin"
    retain = ("x",)

    def compute(self, xp, x):
        return xp.sin(x)

    def grad(self, x, y, gy):
        return gy * cos(x)


class Cos(UnaryOp):
    fname = "cos"
    retain = ("x",)

    def compute(self, xp, x):
        return xp.cos(x)

    def grad(self, x, y, gy):
        return -(gy * sin(x))


class Tan(UnaryOp):
    fname = "tan"
    retain = ("y",)

    def compute(self, xp, x):
        return xp.tan(x)

    def grad(self, x, y, gy):
        return gy * (y * y + 1.0)


class Arcsin(UnaryOp):
    fname = "arcsin"
    retain = ("x",)

    def compute(self, xp, x):
        return xp.arcsin(x)

    def grad(self, x, y, gy):
        return gy / sqrt(1.0 - x * x)


class Arccos(UnaryOp):
    fname = "arccos"
    retain = ("x",)

    def compute(self, xp, x):
        return xp.arccos(x)

    def grad(self, x, y, gy):
        return -gy / sqrt(1.0 - x * x)


class Arctan(UnaryOp):
    fname = "arctan"
    retain = ("x",)

    def compute(self, xp, x):
        return xp.arctan(x)

    def grad(self, x, y, gy):
        return gy / (x * x + 1.0)


class Arctan2(BinaryOp):
    fname = "arctan2"

    def compute(self, xp, x1, x2):
        return xp.arctan2(x1, x2)

    def grad(self, i, x1, x2, gy):
        g = gy / (x1 * x1 + x2 * x2)
        return g * x2 if i == 0 else -g * x1


def sin(x):
    """Elementwise sine; ``x``: float array of any shape, returns the same shape."""
    return Sin().apply((x,))[0]


def cos(x):
    """Elementwise cosine; ``x``: float array of any shape, returns the same shape."""
    return Cos().apply((x,))[0]


def tan(x):
    """Elementwise tangent; ``x``: float array of any shape, returns the same shape."""
    return Tan().apply((x,))[0]


def arcsin(x):
    """Elementwise arcsine; ``x``: float array with values in [-1, 1], returns the same shape."""
    return Arcsin().apply((x,))[0]


def arccos(x):
    """Elementwise arccosine; ``x``: float array with values in [-1, 1], returns the same shape."""
    return Arccos().apply((x,))[0]


def arctan(x):
    """Elementwise arctangent; ``x``: float array of any shape, returns the same shape."""
    return Arctan().apply((x,))[0]


def arctan2(x1, x2):
    """Elementwise angle of the point (x2, x1) in radians, in [-pi, pi].

    ``x1`` (y-coordinates) and ``x2`` (x-coordinates): float arrays of one dtype whose shapes
    broadcast; returns the broadcast shape.
    """
    return Arctan2().apply((x1, x2))[0]
