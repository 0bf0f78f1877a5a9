"""Poisson: the count of events of a process with rate lam."""
import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.variable import Variable


class Poisson(distribution.Distribution):
    """Poisson distribution on {0, 1, ...} with mass ``lam^x exp(-lam) / x!``.

    Parameters
    ----------
    lam : float array or Variable, positive; its shape is ``batch_shape``. Samples are int32.
    """

    def __init__(self, lam):
        self.lam, = _util.params("Poisson", ("lam",), (lam,))

    @property
    def batch_shape(self):
        return self.lam.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {"lam": self.lam}

    @property
    def support(self):
        return "non-negative integer"

    def log_prob(self, x):
        x = _util.value("Poisson", x, self.lam)
        return x * F.log(self.lam) - self.lam - F.lgamma(x + 1.0)

    @property
    def mean(self):
        return self.lam

    @property
    def variance(self):
        return self.lam

    def sample_n(self, n):
        xp = self.lam.xp
        draws = xp.random.poisson(self.lam.array, size=(n,) + self.batch_shape)
        return Variable(draws.astype(xp.int32), requires_grad=False)


@distribution.register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.lam * (F.log(p.lam) - F.log(q.lam)) - p.lam + q.lam
