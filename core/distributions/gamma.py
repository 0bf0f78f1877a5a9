"""Gamma: the gamma distribution with shape k and scale theta."""
import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.variable import Variable


class Gamma(_util.ScalarDistribution):
    """Gamma distribution with density ``x^(k-1) exp(-x/theta) / (Gamma(k) theta^k)`` on x > 0.

    Parameters
    ----------
    k : float array or Variable, positive shape.
    theta : float array or Variable, positive scale; broadcast with ``k`` to ``batch_shape``.

    Samples are not reparameterized (they carry no gradient).
    """

    _param_names = ("k", "theta")
    _support = "positive"

    def __init__(self, k, theta):
        self.k, self.theta = _util.params("Gamma", ("k", "theta"), (k, theta))

    def log_prob(self, x):
        x = self._value(x)
        return ((self.k - 1.0) * F.log(x) - x / self.theta - F.lgamma(self.k)
                - self.k * F.log(self.theta))

    @property
    def entropy(self):
        return (self.k + F.log(self.theta) + F.lgamma(self.k)
                + (1.0 - self.k) * F.digamma(self.k))

    @property
    def mean(self):
        return self.k * self.theta

    @property
    def mode(self):
        """``(k - 1) theta``, defined for k >= 1."""
        return (self.k - 1.0) * self.theta

    @property
    def variance(self):
        return self.k * self.theta ** 2

    def sample_n(self, n):
        return Variable(_util.random_draws(_draws, self.k.array, self.theta.array, (n,) + self.batch_shape),
                        requires_grad=False)


def _draws(xp, k, theta, size):
    return xp.random.gamma(k, theta, size=size).astype(k.dtype, copy=False)


@distribution.register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p, q):
    return ((p.k - q.k) * F.digamma(p.k) - F.lgamma(p.k) + F.lgamma(q.k)
            + q.k * (F.log(q.theta) - F.log(p.theta)) + p.k * (p.theta / q.theta - 1.0))
