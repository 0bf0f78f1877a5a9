"""Normal: the univariate Gaussian distribution N(loc, scale^2)."""
import math

import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


class Normal(_util.ScalarDistribution):
    """Normal distribution with mean ``loc`` and standard deviation ``scale``.

    Parameters
    ----------
    loc : float array or Variable (broadcast with the scale to batch_shape)
    scale : float array or Variable, positive; give exactly one of ``scale`` and ``log_scale``.
    log_scale : float array or Variable, the logarithm of the scale.

    ``batch_shape`` is the broadcast shape of the parameters; ``event_shape`` is ().
    """

    _param_names = ("loc", "scale")
    _support = "real"

    def __init__(self, loc, scale=None, log_scale=None):
        if (scale is None) == (log_scale is None):
            raise ValueError("Normal: give exactly one of scale and log_scale")
        if scale is not None:
            self.loc, self.scale = _util.params("Normal", ("loc", "scale"), (loc, scale))
            self.log_scale = F.log(self.scale)
        else:
            self.loc, self.log_scale = _util.params("Normal", ("loc", "log_scale"),
                                                    (loc, log_scale))
            self.scale = F.exp(self.log_scale)

    def _z(self, x):
        return (self._value(x) - self.loc) / self.scale

    def log_prob(self, x):
        return -0.5 * self._z(x) ** 2 - self.log_scale - _HALF_LOG_2PI

    def cdf(self, x):
        return F.ndtr(self._z(x))

    def log_cdf(self, x):
        return F.log_ndtr(self._z(x))

    def survival_function(self, x):
        return F.ndtr(-self._z(x))

    def log_survival_function(self, x):
        return F.log_ndtr(-self._z(x))

    def icdf(self, x):
        return self.loc + self.scale * F.ndtri(self._value(x))

    @property
    def entropy(self):
        return self.log_scale + (0.5 + _HALF_LOG_2PI)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return self.scale ** 2

    @property
    def stddev(self):
        return self.scale

    def sample_n(self, n):
        eps = _util.standard_normal(self.loc, (n,) + self.batch_shape)
        return self.loc + self.scale * eps


def gaussian_kl(loc1, log_scale1, loc2, log_scale2):
    """KL(N(loc1, e^{2 log_scale1}) || N(loc2, e^{2 log_scale2})), elementwise."""
    ratio = F.exp(2 * (log_scale1 - log_scale2))
    sq_dist = (loc1 - loc2) ** 2 * F.exp(-2 * log_scale2)
    return (log_scale2 - log_scale1) + 0.5 * (ratio + sq_dist - 1)


@distribution.register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    return gaussian_kl(p.loc, p.log_scale, q.loc, q.log_scale)
