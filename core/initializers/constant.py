"""Constant-valued initializers: Constant, Zero, One, NaN."""
import numpy

from kusari import backend
from kusari.initializer import Initializer


class Constant(Initializer):
    """Fill with ``fill_value`` (a scalar, or an array broadcast to the target)."""

    def __init__(self, fill_value, dtype=None):
        self.fill_value = fill_value
        super().__init__(dtype)

    def __call__(self, array):
        if self.dtype is not None and array.dtype != self.dtype:
            raise ValueError(f"Constant: array dtype {array.dtype} != initializer dtype {self.dtype}")
        value = self.fill_value
        if isinstance(value, numpy.ndarray) or backend.is_gpu_array(value):
            value = backend.get_device_from_array(array).send(value)
            if value.shape != array.shape and value.size != 1:
                array[...] = backend.get_array_module(array).broadcast_to(value, array.shape)
                return
        array[...] = value


class Zero(Constant):
    """Fill with 0."""

    def __init__(self, dtype=None):
        super().__init__(0.0, dtype)


class One(Constant):
    """Fill with 1."""

    def __init__(self, dtype=None):
        super().__init__(1.0, dtype)


class NaN(Constant):
    """Fill with NaN (the default of Parameter, so a forgotten initialization shows)."""

    def __init__(self, dtype=None):
        super().__init__(numpy.nan, dtype)
