"""square: elementwise x ** 2."""
from kusari.functions.math._elementwise import UnaryOp


class Square(UnaryOp):
    fname = "square"
    retain = ("x",)

    def compute(self, xp, x):
        return xp.square(x)

    def grad(self, x, y, gy):
        return gy * x * 2.0


def square(x):
    """Elementwise square; ``x``: float array of any shape, returns the same shape."""
    return Square().apply((x,))[0]
