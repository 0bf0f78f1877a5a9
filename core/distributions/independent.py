"""Independent: reinterprets batch axes of a distribution as event axes."""
import kusari.functions as F
from kusari import distribution


class Independent(distribution.Distribution):
    """Treats the rightmost ``reinterpreted_batch_ndims`` batch axes of ``distribution`` as events.

    ``log_prob`` and ``entropy`` sum, and ``prob`` and ``cdf`` multiply, the base values over
    those axes. By default all batch axes but the first are reinterpreted.

    Parameters
    ----------
    distribution : Distribution
    reinterpreted_batch_ndims : int or None
    """

    def __init__(self, distribution, reinterpreted_batch_ndims=None):
        n_batch = len(distribution.batch_shape)
        if reinterpreted_batch_ndims is None:
            reinterpreted_batch_ndims = max(0, n_batch - 1)
        if not 0 <= reinterpreted_batch_ndims <= n_batch:
            raise ValueError(f"Independent: reinterpreted_batch_ndims={reinterpreted_batch_ndims} "
                             f"must be in [0, {n_batch}] for batch_shape="
                             f"{distribution.batch_shape}")
        self.distribution = distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        self._split = n_batch - reinterpreted_batch_ndims

    @property
    def batch_shape(self):
        return self.distribution.batch_shape[:self._split]

    @property
    def event_shape(self):
        return self.distribution.batch_shape[self._split:] + self.distribution.event_shape

    @property
    def params(self):
        return self.distribution.params

    @property
    def support(self):
        return self.distribution.support

    @property
    def xp(self):
        return self.distribution.xp

    def _reduce(self, op, value):
        axes = tuple(range(-self.reinterpreted_batch_ndims, 0))
        return op(value, axis=axes) if axes else value

    def log_prob(self, x):
        return self._reduce(F.sum, self.distribution.log_prob(x))

    def prob(self, x):
        return self._reduce(F.prod, self.distribution.prob(x))

    def cdf(self, x):
        return self._reduce(F.prod, self.distribution.cdf(x))

    def log_cdf(self, x):
        return self._reduce(F.sum, self.distribution.log_cdf(x))

    def survival_function(self, x):
        return self._reduce(F.prod, self.distribution.survival_function(x))

    def log_survival_function(self, x):
        return self._reduce(F.sum, self.distribution.log_survival_function(x))

    @property
    def entropy(self):
        return self._reduce(F.sum, self.distribution.entropy)

    @property
    def mean(self):
        return self.distribution.mean

    @property
    def mode(self):
        return self.distribution.mode

    @property
    def variance(self):
        return self.distribution.variance

    @property
    def stddev(self):
        return self.distribution.stddev

    def sample_n(self, n):
        return self.distribution.sample_n(n)


@distribution.register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if (p.event_shape != q.event_shape
            or p.distribution.event_shape != q.distribution.event_shape):
        raise ValueError(f"kl_divergence: Independent event shapes differ: {p.event_shape} "
                         f"(base {p.distribution.event_shape}) vs {q.event_shape} "
                         f"(base {q.distribution.event_shape})")
    return p._reduce(F.sum, distribution.kl_divergence(p.distribution, q.distribution))
