"""Exponential: the distribution of waiting times with rate lam."""
import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.variable import Variable


class Exponential(_util.ScalarDistribution):
    """Exponential distribution with density ``lam * exp(-lam * x)`` on x >= 0.

    Parameters
    ----------
    lam : float array or Variable, positive rate; its shape is ``batch_shape``.
    """

    _param_names = ("lam",)
    _support = "non-negative"

    def __init__(self, lam):
        self.lam, = _util.params("Exponential", ("lam",), (lam,))

    def log_prob(self, x):
        x = self._value(x)
        return F.where(x.array >= 0, F.log(self.lam) - self.lam * x, -float("inf"))

    def cdf(self, x):
        x = self._value(x)
        return F.where(x.array >= 0, -F.expm1(-self.lam * x), 0.0)

    def survival_function(self, x):
        x = self._value(x)
        return F.where(x.array >= 0, F.exp(-self.lam * x), 1.0)

    def icdf(self, x):
        return -F.log1p(-self._value(x)) / self.lam

    @property
    def entropy(self):
        return 1.0 - F.log(self.lam)

    @property
    def mean(self):
        return 1.0 / self.lam

    @property
    def mode(self):
        return _util.constant(self.lam, 0.0)

    @property
    def variance(self):
        return self.lam ** -2

    @property
    def stddev(self):
        return 1.0 / self.lam

    def sample_n(self, n):
        u = Variable(_util.uniform_open(self.lam, (n,) + self.batch_shape), requires_grad=False)
        return -F.log(u) / self.lam


@distribution.register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    ratio = q.lam / p.lam
    return ratio - F.log(ratio) - 1.0
