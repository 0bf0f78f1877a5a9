"""Dirichlet: the distribution over the probability simplex with concentrations alpha."""
import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.variable import Variable


class Dirichlet(distribution.Distribution):
    """Dirichlet distribution with density ``prod(x_i^(alpha_i - 1)) / B(alpha)`` on the simplex.

    Parameters
    ----------
    alpha : float array or Variable of shape batch_shape + (K,), positive concentrations.

    ``event_shape`` is (K,). Samples are not reparameterized (they carry no gradient).
    """

    def __init__(self, alpha):
        self.alpha, = _util.params("Dirichlet", ("alpha",), (alpha,))
        if self.alpha.ndim < 1:
            raise ValueError(f"Dirichlet: alpha must have at least 1 dimension, got shape "
                             f"{self.alpha.shape}")
        self.alpha0 = F.sum(self.alpha, axis=-1)

    @property
    def batch_shape(self):
        return self.alpha.shape[:-1]

    @property
    def event_shape(self):
        return self.alpha.shape[-1:]

    @property
    def params(self):
        return {"alpha": self.alpha}

    @property
    def support(self):
        return "simplex"

    def _log_norm(self):
        return F.sum(F.lgamma(self.alpha), axis=-1) - F.lgamma(self.alpha0)

    def log_prob(self, x):
        x = _util.value("Dirichlet", x, self.alpha)
        return F.sum((self.alpha - 1.0) * F.log(x), axis=-1) - self._log_norm()

    @property
    def entropy(self):
        k = self.alpha.shape[-1]
        return (self._log_norm() + (self.alpha0 - k) * F.digamma(self.alpha0)
                - F.sum((self.alpha - 1.0) * F.digamma(self.alpha), axis=-1))

    @property
    def mean(self):
        return self.alpha / F.expand_dims(self.alpha0, -1)

    @property
    def variance(self):
        a0 = F.expand_dims(self.alpha0, -1)
        return self.alpha * (a0 - self.alpha) / (a0 ** 2 * (a0 + 1.0))

    def sample_n(self, n):
        return Variable(_util.random_draws(_draws, self.alpha.array, (n,) + self.alpha.shape),
                        requires_grad=False)


def _draws(xp, alpha, size):
    g = xp.random.gamma(alpha, size=size)
    return (g / g.sum(axis=-1, keepdims=True)).astype(alpha.dtype, copy=False)


@distribution.register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    dig = F.digamma(p.alpha) - F.expand_dims(F.digamma(p.alpha0), -1)
    return q._log_norm() - p._log_norm() + F.sum((p.alpha - q.alpha) * dig, axis=-1)
