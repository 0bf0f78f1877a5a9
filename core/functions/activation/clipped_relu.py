"""clipped_relu and relu6: the rectified linear unit clipped from above, min(max(x, 0), z)."""
from kusari.functions.activation._piecewise_linear import PiecewiseLinear


class ClippedReLU(PiecewiseLinear):
    _fname = "clipped_relu"
    _slope_from_output = True   # 0 < y < z exactly where 0 < x < z

    def __init__(self, z):
        self.z = z

    def _value(self, xp, x):
        return xp.clip(x, 0, self.z)

    def _slope(self, xp, y):
        return ((y > 0) & (y < self.z)).astype(y.dtype)


def clipped_relu(x, z=20.0):
    """Clipped rectifier ``min(max(x, 0), z)``.

    x: float array of any shape; z: positive ceiling. Returns a Variable shaped like ``x``.
    """
    if not z > 0:
        raise ValueError(f"clipped_relu: z must be positive, got z={z}")
    return ClippedReLU(float(z)).apply((x,))[0]


def relu6(x):
    """``min(max(x, 0), 6)``, i.e. ``clipped_relu(x, 6.0)``.

    x: float array of any shape; returns a Variable of the same shape and dtype.
    """
    return clipped_relu(x, 6.0)
