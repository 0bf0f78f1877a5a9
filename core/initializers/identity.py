"""Identity initializer: ``scale`` times the identity matrix."""
from kusari import backend
from kusari.initializer import Initializer
from kusari.initializers import _random


class Identity(Initializer):
    """Fill a square 2-D array with ``scale * I``."""

    def __init__(self, scale=1.0, dtype=None):
        self.scale = scale
        super().__init__(dtype)

    def __call__(self, array):
        _random.check_dtype("Identity", self, array)
        if array.ndim != 2 or array.shape[0] != array.shape[1]:
            raise ValueError(f"Identity: array must be square 2-D, got shape {array.shape}")
        xp = backend.get_array_module(array)
        array[...] = xp.eye(array.shape[0], dtype=array.dtype) * array.dtype.type(self.scale)
