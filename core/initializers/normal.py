"""Gaussian initializers: Normal, LeCunNormal, GlorotNormal, HeNormal."""
import math

from kusari.initializer import Initializer, get_fans
from kusari.initializers import _random


class Normal(Initializer):
    """Fill with samples of ``N(0, scale**2)``.

    Parameters
    ----------
    scale : float
        Standard deviation.
    dtype : numpy dtype, optional
    rng : numpy RandomState or Generator, optional
        Host generator to draw from; default the array's ``xp.random``.
    """

    def __init__(self, scale=0.05, dtype=None, rng=None):
        self.scale = scale
        self.rng = rng
        super().__init__(dtype)

    def __call__(self, array):
        _random.fill(type(self).__name__, self, array, "normal", 0.0, float(self.scale))


class _FanNormal(Initializer):
    """``N(0, s**2)`` with ``s = scale * sqrt(gain / fan)``; subclasses choose gain and fan."""

    gain = 1.0

    def __init__(self, scale=1.0, dtype=None, rng=None):
        self.scale = scale
        self.rng = rng
        super().__init__(dtype)

    def _fan(self, shape):
        return get_fans(shape)[0]

    def __call__(self, array):
        std = self.scale * math.sqrt(self.gain / self._fan(array.shape))
        _random.fill(type(self).__name__, self, array, "normal", 0.0, float(std))


class LeCunNormal(_FanNormal):
    """``N(0, s**2)`` with ``s = scale * sqrt(1 / fan_in)`` (LeCun et al., 1998).

    ``fan_in`` of a weight of shape (out, in, *kernel) is ``in * prod(kernel)``.
    """


class GlorotNormal(_FanNormal):
    """``N(0, s**2)`` with ``s = scale * sqrt(2 / (fan_in + fan_out))`` (Glorot & Bengio, 2010)."""

    gain = 2.0

    def _fan(self, shape):
        return sum(get_fans(shape))


class HeNormal(_FanNormal):
    """``N(0, s**2)`` with ``s = scale * sqrt(2 / fan)`` (He et al., 2015).

    ``fan_option`` is ``'fan_in'`` (default) or ``'fan_out'``.
    """

    gain = 2.0

    def __init__(self, scale=1.0, dtype=None, fan_option="fan_in", rng=None):
        if fan_option not in ("fan_in", "fan_out"):
            raise ValueError(f"HeNormal: fan_option must be 'fan_in' or 'fan_out', got {fan_option!r}")
        self.fan_option = fan_option
        super().__init__(scale, dtype, rng)

    def _fan(self, shape):
        fan_in, fan_out = get_fans(shape)
        return fan_in if self.fan_option == "fan_in" else fan_out
