"""Categorical: the distribution over K classes, drawn as integer class indices."""
import kusari.functions as F
from kusari import backend, distribution
from kusari.distributions import _util
from kusari.static_graph import static_code
from kusari.variable import Variable, as_array


def probs_and_logs(who: str, p, logit):
    """``(p, log_p, log_p0)`` from exactly one of ``p`` and ``logit`` (class axis last).

    ``log_p0`` equals ``log_p`` except that it is 0 where ``p`` is 0, so ``p * log_p0`` (and
    its gradient) stays finite for impossible classes.
    """
    if (p is None) == (logit is None):
        raise ValueError(f"{who}: give exactly one of p and logit")
    if p is not None:
        p, = _util.params(who, ("p",), (p,))
        if p.ndim < 1:
            raise ValueError(f"{who}: p must have a class axis, got shape {p.shape}")
        positive = p > 0     # an op, so that a static_graph replay recomputes it from each call's p
        log_p0 = F.log(F.where(positive, p, 1.0))
        return p, F.where(positive, log_p0, -float("inf")), log_p0
    logit, = _util.params(who, ("logit",), (logit,))
    if logit.ndim < 1:
        raise ValueError(f"{who}: logit must have a class axis, got shape {logit.shape}")
    log_p = F.log_softmax(logit, axis=-1)
    return F.exp(log_p), log_p, log_p


@static_code
def sample_classes(p: Variable, n: int):
    """``n`` class indices (int32, shape (n,) + p.shape[:-1]) drawn with probabilities ``p`` (drawn
    anew at every static_graph replay)."""
    xp = p.xp
    cdf = xp.cumsum(p.array, axis=-1)
    cdf = cdf / cdf[..., -1:]  # guard against probabilities that sum to slightly under 1
    u = _util.uniform_open(p, (n,) + p.shape[:-1] + (1,))
    idx = (u > cdf).sum(axis=-1)
    return xp.minimum(idx, p.shape[-1] - 1).astype(xp.int32)


def categorical_kl(p, q):
    """KL between two categorical families given as objects with ``p``, ``log_p``, ``_log_p0``."""
    return F.sum(p.p * (p._log_p0 - q.log_p), axis=-1)


def categorical_entropy(d):
    return -F.sum(d.p * d._log_p0, axis=-1)


class Categorical(distribution.Distribution):
    """Categorical distribution over classes ``0 .. K-1``.

    Parameters
    ----------
    p : float array or Variable of shape batch_shape + (K,), class probabilities, or
    logit : float array or Variable of the same shape, unnormalized log probabilities.

    ``event_shape`` is (); samples and ``log_prob`` inputs are integer class indices.
    """

    def __init__(self, p=None, logit=None):
        self.p, self.log_p, self._log_p0 = probs_and_logs("Categorical", p, logit)

    @property
    def batch_shape(self):
        return self.p.shape[:-1]

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {"p": self.p}

    @property
    def support(self):
        return "[0, K)"

    def log_prob(self, x):
        """Log probability of the integer classes ``x`` (sample_shape + batch_shape)."""
        x = as_array(x)
        xp = backend.get_array_module(x)
        x = xp.asarray(x)
        if x.dtype.kind not in "iu":
            raise TypeError(f"Categorical.log_prob: x must hold integer classes, got dtype "
                            f"{x.dtype}")
        n_batch = len(self.batch_shape)
        if x.shape[x.ndim - n_batch:] != self.batch_shape or x.ndim < n_batch:
            raise ValueError(f"Categorical.log_prob: x.shape={x.shape} must end with "
                             f"batch_shape={self.batch_shape}")
        k = self.p.shape[-1]
        table = F.reshape(F.broadcast_to(self.log_p, x.shape + (k,)), (-1, k))
        # the flattening is an op, so that static_graph replays it with each call's classes
        return F.reshape(F.select_item(table, F.reshape(x, (-1,))), x.shape)

    @property
    def entropy(self):
        return categorical_entropy(self)

    def sample_n(self, n):
        return Variable(sample_classes(self.p, n), requires_grad=False)


@distribution.register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    return categorical_kl(p, q)
