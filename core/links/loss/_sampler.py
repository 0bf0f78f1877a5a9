"""Sampling word IDs in proportion to given weights, for NegativeSampling and BlackOut."""
import numpy


class CategoricalSampler:
    """``sample(shape)`` draws int32 IDs in [0, len(weights)) with probability proportional to ``weights``.

    Samples are drawn on the host from ``rng`` (default ``numpy.random``) with one
    ``searchsorted`` on the cumulative distribution.
    """

    def __init__(self, weights, rng=None):
        weights = numpy.asarray(weights, numpy.float64)
        if weights.ndim != 1 or weights.size == 0 or (weights < 0).any() or weights.sum() <= 0:
            raise ValueError(f"CategoricalSampler: weights must be a non-empty 1-D array of "
                             f"non-negative values with a positive sum, got shape {weights.shape}")
        self.probabilities = weights / weights.sum()
        self._cdf = numpy.cumsum(self.probabilities)
        self._cdf[-1] = 1.0
        self.rng = rng

    def sample(self, shape):
        rng = numpy.random if self.rng is None else self.rng
        u = rng.uniform(0.0, 1.0, size=shape)
        return numpy.searchsorted(self._cdf, u, side="right").astype(numpy.int32)
