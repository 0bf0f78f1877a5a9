"""Chisquare: the distribution of a sum of k squared standard normals."""
from kusari.distributions import _util
from kusari.distributions.gamma import Gamma


class Chisquare(_util.ScalarDistribution):
    """Chi-square distribution with ``k`` degrees of freedom: ``Gamma(k / 2, theta=2)``.

    Parameters
    ----------
    k : float array or Variable, positive; its shape is ``batch_shape``.

    Samples are not reparameterized (they carry no gradient).
    """

    _param_names = ("k",)
    _support = "positive"

    def __init__(self, k):
        self.k, = _util.params("Chisquare", ("k",), (k,))
        self._gamma = Gamma(0.5 * self.k, 2.0)

    def log_prob(self, x):
        return self._gamma.log_prob(x)

    @property
    def entropy(self):
        return self._gamma.entropy

    @property
    def mean(self):
        return self.k

    @property
    def mode(self):
        """``max(k - 2, 0)``."""
        return self._gamma.mode

    @property
    def variance(self):
        return 2.0 * self.k

    def sample_n(self, n):
        return self._gamma.sample_n(n)
