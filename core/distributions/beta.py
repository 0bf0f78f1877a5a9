"""Beta: the beta distribution on (0, 1) with shapes a and b."""
import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.variable import Variable


def log_beta(a, b):
    """``log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b)``, elementwise."""
    return F.lgamma(a) + F.lgamma(b) - F.lgamma(a + b)


class Beta(_util.ScalarDistribution):
    """Beta distribution with density ``x^(a-1) (1-x)^(b-1) / B(a, b)`` on (0, 1).

    Parameters
    ----------
    a, b : float arrays or Variables, positive; broadcast to ``batch_shape``.

    Samples are not reparameterized (they carry no gradient).
    """

    _param_names = ("a", "b")
    _support = "[0, 1]"

    def __init__(self, a, b):
        self.a, self.b = _util.params("Beta", ("a", "b"), (a, b))

    def log_prob(self, x):
        x = self._value(x)
        return ((self.a - 1.0) * F.log(x) + (self.b - 1.0) * F.log1p(-x)
                - log_beta(self.a, self.b))

    @property
    def entropy(self):
        a, b = self.a, self.b
        return (log_beta(a, b) - (a - 1.0) * F.digamma(a) - (b - 1.0) * F.digamma(b)
                + (a + b - 2.0) * F.digamma(a + b))

    @property
    def mean(self):
        return self.a / (self.a + self.b)

    @property
    def variance(self):
        total = self.a + self.b
        return self.a * self.b / (total ** 2 * (total + 1.0))

    def sample_n(self, n):
        return Variable(_util.random_draws(_draws, self.a.array, self.b.array, (n,) + self.batch_shape),
                        requires_grad=False)


def _draws(xp, a, b, size):
    return xp.random.beta(a, b, size=size).astype(a.dtype, copy=False)


@distribution.register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    total = p.a + p.b
    return (log_beta(q.a, q.b) - log_beta(p.a, p.b) + (p.a - q.a) * F.digamma(p.a)
            + (p.b - q.b) * F.digamma(p.b) + (q.a - p.a + q.b - p.b) * F.digamma(total))
