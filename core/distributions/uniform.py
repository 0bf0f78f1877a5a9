"""Uniform: the continuous uniform distribution on [low, high]."""
import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util


class Uniform(_util.ScalarDistribution):
    """Uniform distribution on ``[low, high]``.

    Give ``low`` and ``high``, or (as Chainer allows) ``loc`` and ``scale`` with
    ``low = loc`` and ``high = loc + scale``. Parameters are float arrays or Variables broadcast
    to ``batch_shape``; ``event_shape`` is ().
    """

    _param_names = ("low", "high")
    _support = "[low, high]"

    def __init__(self, low=None, high=None, *, loc=None, scale=None):
        if low is not None and high is not None and loc is None and scale is None:
            self.low, self.high = _util.params("Uniform", ("low", "high"), (low, high))
        elif loc is not None and scale is not None and low is None and high is None:
            self.low, scale = _util.params("Uniform", ("loc", "scale"), (loc, scale))
            self.high = self.low + scale
        else:
            raise ValueError("Uniform: give either low and high, or loc and scale")

    @property
    def _width(self):
        return self.high - self.low

    def log_prob(self, x):
        x = self._value(x).array
        inside = (x >= self.low.array) & (x <= self.high.array)
        return F.where(inside, -F.log(self._width), -float("inf"))

    def cdf(self, x):
        x = self._value(x)
        return F.clip((x - self.low) / self._width, 0.0, 1.0)

    def icdf(self, x):
        return self.low + self._value(x) * self._width

    @property
    def entropy(self):
        return F.log(self._width)

    @property
    def mean(self):
        return 0.5 * (self.low + self.high)

    @property
    def variance(self):
        return self._width ** 2 / 12.0

    def sample_n(self, n):
        u = _util.uniform_open(self.low, (n,) + self.batch_shape)
        return self.low + u * self._width


@distribution.register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    # Finite only when the support of p lies inside the support of q.
    covered = (q.low.array <= p.low.array) & (p.high.array <= q.high.array)
    return F.where(covered, F.log(q._width / p._width), float("inf"))
