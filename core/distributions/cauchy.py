"""Cauchy: the heavy-tailed location-scale distribution with no mean or variance."""
import math

import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util


class Cauchy(distribution.Distribution):
    """Cauchy distribution with density ``1 / (pi scale (1 + ((x - loc) / scale)^2))``.

    Parameters
    ----------
    loc : float array or Variable
    scale : float array or Variable, positive; broadcast with ``loc`` to ``batch_shape``.

    Mean and variance do not exist and are not provided.
    """

    def __init__(self, loc, scale):
        self.loc, self.scale = _util.params("Cauchy", ("loc", "scale"), (loc, scale))

    @property
    def batch_shape(self):
        return self.loc.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {"loc": self.loc, "scale": self.scale}

    @property
    def support(self):
        return "real"

    def _z(self, x):
        return (_util.value("Cauchy", x, self.loc) - self.loc) / self.scale

    def log_prob(self, x):
        return -F.log1p(self._z(x) ** 2) - F.log(self.scale) - math.log(math.pi)

    def cdf(self, x):
        return 0.5 + F.arctan(self._z(x)) / math.pi

    def icdf(self, x):
        return self.loc + self.scale * F.tan(math.pi * (_util.value("Cauchy", x, self.loc) - 0.5))

    @property
    def entropy(self):
        return F.log(self.scale) + math.log(4 * math.pi)

    @property
    def mode(self):
        return self.loc

    def sample_n(self, n):
        xp = self.loc.xp
        u = _util.uniform_open(self.loc, (n,) + self.batch_shape)
        return self.loc + self.scale * xp.tan(math.pi * (u - 0.5))
