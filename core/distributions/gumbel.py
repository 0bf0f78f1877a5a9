"""Gumbel: the extreme-value (type I) distribution of maxima."""
import math

import numpy

import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.variable import Variable


class Gumbel(_util.ScalarDistribution):
    """Gumbel distribution with cdf ``exp(-exp(-(x - loc) / scale))``.

    Parameters
    ----------
    loc : float array or Variable
    scale : float array or Variable, positive; broadcast with ``loc`` to ``batch_shape``.
    """

    _param_names = ("loc", "scale")
    _support = "real"

    def __init__(self, loc, scale):
        self.loc, self.scale = _util.params("Gumbel", ("loc", "scale"), (loc, scale))

    def _z(self, x):
        return (self._value(x) - self.loc) / self.scale

    def log_prob(self, x):
        z = self._z(x)
        return -z - F.exp(-z) - F.log(self.scale)

    def cdf(self, x):
        return F.exp(-F.exp(-self._z(x)))

    def icdf(self, x):
        return self.loc - self.scale * F.log(-F.log(self._value(x)))

    @property
    def entropy(self):
        return F.log(self.scale) + (numpy.euler_gamma + 1.0)

    @property
    def mean(self):
        return self.loc + numpy.euler_gamma * self.scale

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return (math.pi ** 2 / 6.0) * self.scale ** 2

    def sample_n(self, n):
        u = Variable(_util.uniform_open(self.loc, (n,) + self.batch_shape), requires_grad=False)
        return self.loc - self.scale * F.log(-F.log(u))


@distribution.register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p, q):
    ratio = p.scale / q.scale
    shift = (p.loc - q.loc) / q.scale
    return (-F.log(ratio) + numpy.euler_gamma * (ratio - 1.0) + shift
            + F.exp(-shift + F.lgamma(ratio + 1.0)) - 1.0)
