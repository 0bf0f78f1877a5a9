"""Pareto: the power-law distribution on [scale, inf)."""
import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.variable import Variable


class Pareto(_util.ScalarDistribution):
    """Pareto distribution with density ``alpha scale^alpha / x^(alpha + 1)`` on x >= scale.

    Parameters
    ----------
    scale : float array or Variable, positive, the minimum value.
    alpha : float array or Variable, positive shape; broadcast with ``scale`` to ``batch_shape``.

    The mean is inf for alpha <= 1 and the variance inf for alpha <= 2.
    """

    _param_names = ("scale", "alpha")
    _support = "[scale, inf)"

    def __init__(self, scale, alpha):
        self.scale, self.alpha = _util.params("Pareto", ("scale", "alpha"), (scale, alpha))

    def log_prob(self, x):
        x = self._value(x)
        lp = F.log(self.alpha) + self.alpha * F.log(self.scale) - (self.alpha + 1.0) * F.log(x)
        return F.where(x.array >= self.scale.array, lp, -float("inf"))

    def cdf(self, x):
        x = self._value(x)
        inside = x.array >= self.scale.array
        safe_x = F.where(inside, x, self.scale)
        return F.where(inside, 1.0 - (self.scale / safe_x) ** self.alpha, 0.0)

    def icdf(self, x):
        x = self._value(x)
        return self.scale * F.exp(-F.log1p(-x) / self.alpha)

    @property
    def entropy(self):
        return F.log(self.scale / self.alpha) + 1.0 / self.alpha + 1.0

    @property
    def mean(self):
        finite = self.alpha.array > 1
        return F.where(finite, self.alpha * self.scale / (self.alpha - 1.0), float("inf"))

    @property
    def mode(self):
        return self.scale

    @property
    def variance(self):
        a = self.alpha
        finite = a.array > 2
        return F.where(finite, self.scale ** 2 * a / ((a - 1.0) ** 2 * (a - 2.0)), float("inf"))

    def sample_n(self, n):
        log_u = F.log(Variable(_util.uniform_open(self.scale, (n,) + self.batch_shape), requires_grad=False))
        return self.scale * F.exp(-log_u / self.alpha)


@distribution.register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p, q):
    # E_p[log x] = log scale_p + 1 / alpha_p; infinite when p has mass below q's minimum.
    kl = (F.log(p.alpha) - F.log(q.alpha) + p.alpha * F.log(p.scale) - q.alpha * F.log(q.scale)
          + (q.alpha - p.alpha) * (F.log(p.scale) + 1.0 / p.alpha))
    return F.where(p.scale.array >= q.scale.array, kl, float("inf"))
