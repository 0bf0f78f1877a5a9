"""Poisson: the count of events of a process with rate lam."""
import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.variable import Variable


class Poisson(_util.ScalarDistribution):
    """Poisson distribution on {0, 1, ...} with mass ``lam^x exp(-lam) / x!``.

    Parameters
    ----------
    lam : float array or Variable, positive; its shape is ``batch_shape``. Samples are int32.
    """

    _param_names = ("lam",)
    _support = "non-negative integer"

    def __init__(self, lam):
        self.lam, = _util.params("Poisson", ("lam",), (lam,))

    def log_prob(self, x):
        x = self._value(x)
        return x * F.log(self.lam) - self.lam - F.lgamma(x + 1.0)

    @property
    def mean(self):
        return self.lam

    @property
    def variance(self):
        return self.lam

    def sample_n(self, n):
        return Variable(_util.random_draws(_draws, self.lam.array, (n,) + self.batch_shape),
                        requires_grad=False)


def _draws(xp, lam, size):
    return xp.random.poisson(lam, size=size).astype(xp.int32)


@distribution.register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.lam * (F.log(p.lam) - F.log(q.lam)) - p.lam + q.lam
