"""OneHotCategorical: the categorical distribution with draws encoded as one-hot vectors."""
import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util
from kusari.static_graph import static_code
from kusari.distributions.categorical import (categorical_entropy, categorical_kl,
                                              probs_and_logs, sample_classes)
from kusari.variable import Variable


class OneHotCategorical(distribution.Distribution):
    """Categorical distribution over K classes whose draws are one-hot vectors.

    Parameters
    ----------
    p : float array or Variable of shape batch_shape + (K,), class probabilities.

    ``event_shape`` is (K,); samples have the dtype of ``p``.
    """

    def __init__(self, p):
        self.p, self.log_p, self._log_p0 = probs_and_logs("OneHotCategorical", p, None)

    @property
    def batch_shape(self):
        return self.p.shape[:-1]

    @property
    def event_shape(self):
        return self.p.shape[-1:]

    @property
    def params(self):
        return {"p": self.p}

    @property
    def support(self):
        return "one-hot vectors of length K"

    def log_prob(self, x):
        """Log probability of the one-hot vectors ``x`` (sample_shape + batch_shape + (K,))."""
        x = _util.value("OneHotCategorical", x, self.p)
        lp = F.sum(x * self._log_p0, axis=-1)
        impossible = ((x.array > 0) & (self.p.array == 0)).any(axis=-1)
        return F.where(impossible, -float("inf"), lp)

    @property
    def entropy(self):
        return categorical_entropy(self)

    @property
    def mean(self):
        return self.p

    @property
    def variance(self):
        return self.p * (1.0 - self.p)

    def sample_n(self, n):
        return Variable(_one_hot_draws(self.p, n), requires_grad=False)


@static_code
def _one_hot_draws(p: Variable, n: int):
    """``n`` one-hot rows (p's dtype, shape (n,) + p.shape) drawn with probabilities ``p`` (drawn
    anew at every static_graph replay)."""
    return p.xp.eye(p.shape[-1], dtype=p.dtype)[sample_classes(p, n)]


@distribution.register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehot_onehot(p, q):
    return categorical_kl(p, q)
