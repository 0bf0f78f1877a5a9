"""Scale: multiply by a learned (or given) scale broadcast along the axes of the input, plus an optional bias."""
from kusari import functions as F
from kusari import initializers
from kusari.link import Chain
from kusari.links.connection.bias import Bias
from kusari.variable import Parameter


class Scale(Chain):
    """``y = x * W (+ b)`` with W broadcast so that its axes start at ``axis`` of x.

    With ``W_shape`` the link owns W (initialized to 1) and is called as ``scale(x)``; without,
    as ``scale(x, W)``. ``bias_term`` adds a Bias of ``bias_shape`` (default ``W_shape``).
    """

    def __init__(self, axis=1, W_shape=None, bias_term=False, bias_shape=None):
        super().__init__()
        self.axis = axis
        with self.init_scope():
            if W_shape is not None:
                self.W = Parameter(initializers.One(), W_shape)
            if bias_term:
                shape = W_shape if bias_shape is None else bias_shape
                if shape is None:
                    raise ValueError("Scale: bias_term=True needs W_shape or bias_shape")
                self.bias = Bias(axis, shape)

    def forward(self, *xs):
        """``(x)`` with an owned W, or ``(x, W)``; returns a Variable of x's shape."""
        if len(xs) == 2:
            x, W = xs
        elif len(xs) == 1 and hasattr(self, "W"):
            x, W = xs[0], self.W
        else:
            raise TypeError(f"Scale: expected (x) with an owned W or (x, W), got {len(xs)} inputs")
        y = F.scale(x, W, self.axis)
        if hasattr(self, "bias"):
            y = self.bias(y)
        return y
