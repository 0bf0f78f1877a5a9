"""Geometric: the number of Bernoulli(p) trials up to and including the first success."""
import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.variable import Variable


class Geometric(_util.ScalarDistribution):
    """Geometric distribution on {1, 2, ...} with mass ``(1 - p)^(x - 1) p``.

    Parameters
    ----------
    p : float array or Variable in (0, 1]; its shape is ``batch_shape``. Samples are int32.
    """

    _param_names = ("p",)
    _support = "positive integer"

    def __init__(self, p):
        self.p, = _util.params("Geometric", ("p",), (p,))

    def log_prob(self, x):
        x = self._value(x)
        return (x - 1.0) * F.log1p(-self.p) + F.log(self.p)

    @property
    def entropy(self):
        q = 1.0 - self.p
        return -(q * F.log1p(-self.p) + self.p * F.log(self.p)) / self.p

    @property
    def mean(self):
        return 1.0 / self.p

    @property
    def variance(self):
        return (1.0 - self.p) / self.p ** 2

    def sample_n(self, n):
        return Variable(_util.random_draws(_draws, self.p.array, (n,) + self.batch_shape),
                        requires_grad=False)


def _draws(xp, p, size):
    return xp.random.geometric(p, size=size).astype(xp.int32)


@distribution.register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p, q):
    # E_p[x - 1] = 1/p - 1 failures before the success.
    return (F.log(p.p) - F.log(q.p)
            + (1.0 / p.p - 1.0) * (F.log1p(-p.p) - F.log1p(-q.p)))
