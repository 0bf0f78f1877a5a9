"""Initializer base class: fills a preallocated array in place."""
import numpy


class Initializer:
    """Callable that fills ``array`` in place; ``dtype`` (optional) fixes the array's dtype."""

    def __init__(self, dtype=None):
        self.dtype = None if dtype is None else numpy.dtype(dtype)

    def __call__(self, array):
        raise NotImplementedError

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if v is not None)
        return f"{type(self).__name__}({args})"


def get_fans(shape):
    """(fan_in, fan_out) of a weight of ``shape`` = (out, in, *kernel)."""
    if len(shape) < 2:
        raise ValueError(f"get_fans: shape must have at least 2 dimensions, got {shape}")
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive
