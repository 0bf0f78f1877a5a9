"""Laplace: the double-exponential distribution around loc."""
import math

import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.variable import Variable


class Laplace(_util.ScalarDistribution):
    """Laplace distribution with density ``exp(-|x - loc| / scale) / (2 scale)``.

    Parameters
    ----------
    loc : float array or Variable
    scale : float array or Variable, positive; broadcast with ``loc`` to ``batch_shape``.
    """

    _param_names = ("loc", "scale")
    _support = "real"

    def __init__(self, loc, scale):
        self.loc, self.scale = _util.params("Laplace", ("loc", "scale"), (loc, scale))

    def _diff(self, x):
        return self._value(x) - self.loc

    def log_prob(self, x):
        return -abs(self._diff(x)) / self.scale - F.log(self.scale) - math.log(2.0)

    def cdf(self, x):
        d = self._diff(x)
        return 0.5 - 0.5 * F.sign(d) * F.expm1(-abs(d) / self.scale)

    def icdf(self, x):
        c = self._value(x) - 0.5
        return self.loc - self.scale * F.sign(c) * F.log1p(-2.0 * abs(c))

    @property
    def entropy(self):
        return F.log(self.scale) + (1.0 + math.log(2.0))

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return 2.0 * self.scale ** 2

    @property
    def stddev(self):
        return math.sqrt(2.0) * self.scale

    def sample_n(self, n):
        # Inverse-cdf sampling with u uniform on (-1, 1): x = loc - scale * sign(u) log(1 - |u|).
        u = 2 * Variable(_util.uniform_open(self.loc, (n,) + self.batch_shape), requires_grad=False) - 1
        return self.loc - self.scale * (F.sign(u) * F.log1p(-F.absolute(u)))


@distribution.register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    d = abs(p.loc - q.loc)
    ratio = p.scale / q.scale
    return -F.log(ratio) + d / q.scale + ratio * F.exp(-d / p.scale) - 1.0
