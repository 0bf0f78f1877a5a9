"""Uniform initializers: Uniform, LeCunUniform, GlorotUniform, HeUniform."""
import math

from kusari.initializer import Initializer, get_fans
from kusari.initializers import _random


class Uniform(Initializer):
    """Fill with samples of ``U(-scale, scale)``.

    Parameters
    ----------
    scale : float
        Half-width of the interval.
    dtype : numpy dtype, optional
    rng : numpy RandomState or Generator, optional
        Host generator to draw from; default the array's ``xp.random``.
    """

    def __init__(self, scale=0.05, dtype=None, rng=None):
        self.scale = scale
        self.rng = rng
        super().__init__(dtype)

    def __call__(self, array):
        _random.fill(type(self).__name__, self, array, "uniform", -float(self.scale), float(self.scale))


class _FanUniform(Uniform):
    """``U(-s, s)`` with ``s = scale * sqrt(gain / fan)``; subclasses choose gain and fan."""

    gain = 3.0

    def __init__(self, scale=1.0, dtype=None, rng=None):
        super().__init__(scale, dtype, rng)

    def _fan(self, shape):
        return get_fans(shape)[0]

    def __call__(self, array):
        s = float(self.scale * math.sqrt(self.gain / self._fan(array.shape)))
        _random.fill(type(self).__name__, self, array, "uniform", -s, s)


class LeCunUniform(_FanUniform):
    """``U(-s, s)`` with ``s = scale * sqrt(3 / fan_in)`` (variance ``scale**2 / fan_in``)."""


class GlorotUniform(_FanUniform):
    """``U(-s, s)`` with ``s = scale * sqrt(6 / (fan_in + fan_out))`` (Glorot & Bengio, 2010)."""

    gain = 6.0

    def _fan(self, shape):
        return sum(get_fans(shape))


class HeUniform(_FanUniform):
    """``U(-s, s)`` with ``s = scale * sqrt(6 / fan_in)`` (He et al., 2015)."""

    gain = 6.0
