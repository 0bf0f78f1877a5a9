"""MultivariateNormal: the Gaussian over R^d with mean loc and covariance L L^T (L = scale_tril)."""
import math

import numpy

import kusari.functions as F
from kusari import distribution
from kusari.distributions import _util

_LOG_2PI = math.log(2 * math.pi)


def _inv(a):
    """Inverse of a stack of square matrices ``a`` (..., d, d)."""
    d = a.shape[-1]
    return F.reshape(F.batch_inv(F.reshape(a, (-1, d, d))), a.shape)


def _apply(m, v):
    """Matrix-vector products ``m @ v`` over broadcast leading axes: (..., d, d), (..., d)."""
    return F.einsum("...ij,...j->...i", m, v)


class MultivariateNormal(distribution.Distribution):
    """Multivariate normal distribution ``N(loc, L L^T)`` with ``L = scale_tril``.

    Parameters
    ----------
    loc : float array or Variable of shape batch_shape + (d,)
    scale_tril : float array or Variable of shape batch_shape + (d, d), lower triangular with a
        positive diagonal (the Cholesky factor of the covariance). Entries above the diagonal
        are ignored (and receive zero gradient).

    ``event_shape`` is (d,); the batch shapes of the two parameters are broadcast.
    """

    def __init__(self, loc, scale_tril):
        loc, scale_tril = _util.params("MultivariateNormal", ("loc", "scale_tril"),
                                       (loc, scale_tril), broadcast=False)
        if loc.ndim < 1 or scale_tril.ndim < 2 or scale_tril.shape[-2:] != loc.shape[-1:] * 2:
            raise ValueError(f"MultivariateNormal: loc must be (..., d) and scale_tril "
                             f"(..., d, d), got loc.shape={loc.shape}, "
                             f"scale_tril.shape={scale_tril.shape}")
        try:
            batch = numpy.broadcast_shapes(loc.shape[:-1], scale_tril.shape[:-2])
        except ValueError:
            raise ValueError(f"MultivariateNormal: batch shapes do not broadcast: loc.shape="
                             f"{loc.shape}, scale_tril.shape={scale_tril.shape}") from None
        d = loc.shape[-1]
        if loc.shape != batch + (d,):
            loc = F.broadcast_to(loc, batch + (d,))
        if scale_tril.shape != batch + (d, d):
            scale_tril = F.broadcast_to(scale_tril, batch + (d, d))
        self.loc = loc
        self.scale_tril = scale_tril * loc.xp.tril(loc.xp.ones((d, d), loc.dtype))
        self._log_diag = F.log(F.diagonal(self.scale_tril, 0, -2, -1))

    @property
    def batch_shape(self):
        return self.loc.shape[:-1]

    @property
    def event_shape(self):
        return self.loc.shape[-1:]

    @property
    def params(self):
        return {"loc": self.loc, "scale_tril": self.scale_tril}

    @property
    def support(self):
        return "real"

    def log_prob(self, x):
        x = _util.value("MultivariateNormal", x, self.loc)
        if x.shape[-1:] != self.event_shape:
            raise ValueError(f"MultivariateNormal.log_prob: x.shape={x.shape} does not end with "
                             f"event_shape={self.event_shape}")
        z = _apply(_inv(self.scale_tril), x - self.loc)
        d = self.loc.shape[-1]
        return (-0.5 * F.sum(z ** 2, axis=-1) - F.sum(self._log_diag, axis=-1)
                - 0.5 * d * _LOG_2PI)

    @property
    def entropy(self):
        d = self.loc.shape[-1]
        return F.sum(self._log_diag, axis=-1) + 0.5 * d * (1.0 + _LOG_2PI)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def covariance(self):
        return F.matmul(self.scale_tril, self.scale_tril, transb=True)

    @property
    def variance(self):
        return F.sum(self.scale_tril ** 2, axis=-1)

    def sample_n(self, n):
        eps = _util.standard_normal(self.loc, (n,) + self.loc.shape)
        return self.loc + _apply(self.scale_tril, eps)


@distribution.register_kl(MultivariateNormal, MultivariateNormal)
def _kl_mvn_mvn(p, q):
    q_inv = _inv(q.scale_tril)
    m = F.einsum("...ij,...jk->...ik", q_inv, p.scale_tril)
    z = _apply(q_inv, q.loc - p.loc)
    d = p.loc.shape[-1]
    return (F.sum(q._log_diag, axis=-1) - F.sum(p._log_diag, axis=-1)
            + 0.5 * (F.sum(m ** 2, axis=(-2, -1)) + F.sum(z ** 2, axis=-1) - d))
