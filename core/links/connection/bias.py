"""Bias: add a learned (or given) bias broadcast along the axes of the input."""
from kusari import functions as F
from kusari import initializers
from kusari.link import Link
from kusari.variable import Parameter


class Bias(Link):
    """``y = x + b`` with b broadcast so that its axes start at ``axis`` of x.

    With ``shape`` the link owns ``b`` (zero-initialized) and is called as ``bias(x)``;
    without, it is called as ``bias(x, b)``.
    """

    def __init__(self, axis=1, shape=None):
        super().__init__()
        self.axis = axis
        if shape is not None:
            with self.init_scope():
                self.b = Parameter(initializers.Zero(), shape)

    def forward(self, *xs):
        """``(x)`` with an owned b, or ``(x, b)``; returns a Variable of x's shape."""
        if len(xs) == 2:
            x, b = xs
        elif len(xs) == 1 and hasattr(self, "b"):
            x, b = xs[0], self.b
        else:
            raise TypeError(f"Bias: expected (x) with an owned b or (x, b), got {len(xs)} inputs")
        return F.bias(x, b, self.axis)
