"""clip: limit the elements of an array to an interval."""
from kusari import backend, utils
from kusari.function_node import FunctionNode


class Clip(FunctionNode):
    def __init__(self, x_min, x_max):
        self.x_min = x_min
        self.x_max = x_max

    def forward(self, inputs):
        x, = inputs
        utils.check_float("clip", "x", x)
        lo, hi = self.x_min, self.x_max
        if lo is None and hi is None:
            raise ValueError("clip: x_min and x_max are both None; give at least one bound")
        if lo is not None and hi is not None and not lo < hi:
            raise ValueError(f"clip: x_min={lo} must be less than x_max={hi}")
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        y = x
        if lo is not None:
            y = xp.maximum(y, x.dtype.type(lo))
        if hi is not None:
            y = xp.minimum(y, x.dtype.type(hi))
        return utils.force_array(y, x.dtype),

    def _inside(self, x):
        """1 where ``x_min < x < x_max``, else 0, in ``x``'s dtype: the slope of clip."""
        inside = backend.get_array_module(x).ones(x.shape, dtype=bool)
        if self.x_min is not None:
            inside &= x > x.dtype.type(self.x_min)
        if self.x_max is not None:
            inside &= x < x.dtype.type(self.x_max)
        return inside.astype(x.dtype)

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self._inside(self.get_retained_inputs()[0].array),


def clip(x, x_min, x_max):
    """Elementwise ``min(max(x, x_min), x_max)``.

    ``x``: float array of any shape; ``x_min``, ``x_max``: floats with ``x_min < x_max`` (either
    may be None for no bound on that side). Returns the shape of ``x``. The gradient is passed
    where ``x_min < x < x_max`` and zero elsewhere.
    """
    return Clip(x_min, x_max).apply((x,))[0]
