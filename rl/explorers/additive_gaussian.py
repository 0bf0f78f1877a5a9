"""Exploration by adding Gaussian noise to a continuous action."""
import numpy

from kusari.rl.explorer import Explorer


class AdditiveGaussian(Explorer):
    """Add ``N(0, scale**2)`` noise (float32) to the greedy action, then clip it to ``[low, high]``.

    Parameters
    ----------
    scale : float or array_like
        Standard deviation of the noise, >= 0 (per action dimension when an array).
    low, high : float, array_like or None
        Bounds of the action space; None leaves that side unclipped.
    """

    def __init__(self, scale, low=None, high=None):
        if numpy.any(numpy.asarray(scale) < 0):
            raise ValueError(f"AdditiveGaussian: scale must be >= 0, got {scale!r}")
        if low is not None and high is not None and numpy.any(numpy.asarray(low) > numpy.asarray(high)):
            raise ValueError(f"AdditiveGaussian: low must not exceed high, got low={low!r}, high={high!r}")
        self.scale = scale
        self.low = low
        self.high = high

    def select_action(self, t, greedy_action_func, action_value=None):
        a = greedy_action_func()
        noisy = a + numpy.random.normal(scale=self.scale, size=a.shape).astype(numpy.float32)
        if self.low is None and self.high is None:
            return noisy
        # in place, so float64 bounds do not promote a float32 action
        return numpy.clip(noisy, self.low, self.high, out=noisy)

    def __repr__(self):
        return f"AdditiveGaussian(scale={self.scale}, low={self.low}, high={self.high})"
