"""Bernoulli: the distribution of one coin flip with success probability p."""
import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.variable import Variable


class Bernoulli(_util.ScalarDistribution):
    """Bernoulli distribution on {0, 1} with ``P(1) = p``.

    Parameters
    ----------
    p : float array or Variable, in [0, 1], or
    logit : float array or Variable, ``log(p / (1 - p))``; give exactly one.
    binary_check : bool
        If True, ``log_prob`` returns -inf at points other than 0 and 1; if False it evaluates
        the continuous extension ``x log p + (1 - x) log(1 - p)`` there.

    ``batch_shape`` is the parameter's shape; ``event_shape`` is (). Samples are int32.
    """

    _param_names = ("p",)
    _support = "{0, 1}"

    def __init__(self, p=None, logit=None, binary_check=False):
        if (p is None) == (logit is None):
            raise ValueError("Bernoulli: give exactly one of p and logit")
        if p is not None:
            self.p, = _util.params("Bernoulli", ("p",), (p,))
            self.logit = F.log(self.p) - F.log1p(-self.p)
        else:
            self.logit, = _util.params("Bernoulli", ("logit",), (logit,))
            self.p = F.sigmoid(self.logit)
        self.binary_check = binary_check

    def log_prob(self, x):
        x = self._value(x)
        # x log p + (1 - x) log(1 - p) in the logit form, stable for large |logit|.
        lp = x * self.logit - F.softplus(self.logit)
        if self.binary_check:
            binary = (x.array == 0) | (x.array == 1)
            lp = F.where(binary, lp, -float("inf"))
        return lp

    @property
    def entropy(self):
        return F.softplus(self.logit) - self.p * self.logit

    @property
    def mean(self):
        return self.p

    @property
    def variance(self):
        return self.p * (1.0 - self.p)

    def sample_n(self, n):
        return Variable(_util.random_draws(_draws, self.p.array, (n,) + self.batch_shape),
                        requires_grad=False)


def _draws(xp, p, size):
    return (xp.random.random(size) < p).astype(xp.int32)


@distribution.register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    # p1 (l1 - l2) - softplus(l1) + softplus(l2), with l the logits.
    return p.p * (p.logit - q.logit) - F.softplus(p.logit) + F.softplus(q.logit)
