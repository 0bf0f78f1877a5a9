"""Cauchy: the heavy-tailed location-scale distribution with no mean or variance."""
import math

import kusari.functions as F
from kusari.distributions import _util
from kusari.variable import Variable


class Cauchy(_util.ScalarDistribution):
    """Cauchy distribution with density ``1 / (pi scale (1 + ((x - loc) / scale)^2))``.

    Parameters
    ----------
    loc : float array or Variable
    scale : float array or Variable, positive; broadcast with ``loc`` to ``batch_shape``.

    Mean and variance do not exist and are not provided.
    """

    _param_names = ("loc", "scale")
    _support = "real"

    def __init__(self, loc, scale):
        self.loc, self.scale = _util.params("Cauchy", ("loc", "scale"), (loc, scale))

    def _z(self, x):
        return (self._value(x) - self.loc) / self.scale

    def log_prob(self, x):
        return -F.log1p(self._z(x) ** 2) - F.log(self.scale) - math.log(math.pi)

    def cdf(self, x):
        return 0.5 + F.arctan(self._z(x)) / math.pi

    def icdf(self, x):
        return self.loc + self.scale * F.tan(math.pi * (self._value(x) - 0.5))

    @property
    def entropy(self):
        return F.log(self.scale) + math.log(4 * math.pi)

    @property
    def mode(self):
        return self.loc

    def sample_n(self, n):
        u = Variable(_util.uniform_open(self.loc, (n,) + self.batch_shape), requires_grad=False)
        return self.loc + self.scale * F.tan(math.pi * (u - 0.5))
