"""Policy distributions: kusari distributions with PFRL's (torch's) sampling names.

PFRL's agents draw actions with ``sample()`` (a constant, no gradient) and build
reparameterized policy losses with ``rsample()`` (differentiable w.r.t. the parameters).
The core distributions follow Chainer, whose ``sample()`` is already reparameterized;
the classes here add the split, plus ``most_probable`` (ChainerRL's name for the mode).
``entropy`` stays a property, as everywhere in kusari.
"""
import kusari
import kusari.distributions as D
import kusari.functions as F
import numpy
from kusari import utils
from kusari.rl.functions.squashed_gaussian_draw import SquashedGaussianDraw, squashed_gaussian_draw  # NOQA
from kusari.rl.functions.squashed_gaussian_log_density import (  # NOQA
    SquashedGaussianLogDensity, squashed_gaussian_log_density)


def _constant(v: kusari.Variable) -> kusari.Variable:
    """``v``'s value cut from the graph (torch's ``detach``)."""
    return kusari.Variable(v.array, requires_grad=False)


class PolicyDistributionMixin:
    """Adds ``rsample``, a gradient-free ``sample`` and ``most_probable`` to a Distribution.

    Put it before the kusari distribution class in the bases; that class's ``sample``
    (reparameterized for location-scale families) becomes ``rsample``.
    """

    def rsample(self, sample_shape=()) -> kusari.Variable:
        """Reparameterized draw of shape sample_shape + batch_shape + event_shape.

        Gradients flow from the draw to the distribution's parameters.
        """
        return super().sample(sample_shape)

    def sample(self, sample_shape=()) -> kusari.Variable:
        """Draw of shape sample_shape + batch_shape + event_shape that carries no gradient."""
        return _constant(super().sample(sample_shape))

    @property
    def most_probable(self) -> kusari.Variable:
        """The mode (ChainerRL's name), of shape batch_shape + event_shape."""
        return self.mode


class Categorical(PolicyDistributionMixin, D.Categorical):
    """Categorical distribution over actions ``0 .. K-1`` with a ``mode`` and torch's aliases.

    Parameters
    ----------
    p : float array or Variable (batch_shape + (K,)), or
    logit : float array or Variable (batch_shape + (K,)).
    """

    def rsample(self, sample_shape=()):
        raise NotImplementedError("Categorical.rsample: a discrete draw cannot be reparameterized; "
                                  "use sample()")

    @property
    def mode(self) -> kusari.Variable:
        """The most probable class, int32 of shape batch_shape."""
        return kusari.Variable(self.p.array.argmax(axis=-1).astype(numpy.int32),
                               requires_grad=False)

    @property
    def probs(self) -> kusari.Variable:
        """Class probabilities (torch's name for ``p``)."""
        return self.p

    @property
    def logits(self) -> kusari.Variable:
        """Normalized log probabilities (torch's ``logits``), shape batch_shape + (K,)."""
        return self.log_p


class Independent(PolicyDistributionMixin, D.Independent):
    """``kusari.distributions.Independent`` with ``rsample`` / gradient-free ``sample``."""


class Delta(PolicyDistributionMixin, D.Distribution):
    """The point mass at ``loc``: every draw is ``loc`` (PFRL's ``Delta``).

    Parameters
    ----------
    loc : float array or Variable; ``batch_shape`` is its shape, ``event_shape`` is ().

    ``log_prob`` and ``entropy`` are undefined and raise NotImplementedError.
    """

    def __init__(self, loc):
        loc = kusari.as_variable(loc)
        if loc.dtype.kind != "f":
            raise TypeError(f"Delta: loc must be a float array or Variable, got dtype {loc.dtype}")
        self.loc = loc

    @property
    def batch_shape(self):
        return self.loc.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {"loc": self.loc}

    @property
    def support(self):
        return "real"

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return kusari.Variable(self.xp.zeros_like(self.loc.array), requires_grad=False)

    @property
    def stddev(self):
        return self.variance

    def sample_n(self, n):
        return F.broadcast_to(self.loc, (n,) + self.loc.shape)


class SquashedDiagonalGaussian(PolicyDistributionMixin, D.Distribution):
    """``tanh(u)`` with ``u ~ N(loc, diag(exp(log_scale))^2)``: SAC's bounded action distribution.

    Parameters
    ----------
    loc : float Variable or array of shape (batch_size, action_size)
    log_scale : float Variable or array of the same shape and dtype.

    ``batch_shape`` is (batch_size,), ``event_shape`` is (action_size,). The last draw is
    remembered with its pre-tanh value (torch's ``TanhTransform(cache_size=1)``), so
    ``log_prob`` of that draw needs no ``arctanh``, which loses all precision near +-1.
    ``mean`` and ``entropy`` have no closed form and raise NotImplementedError.
    """

    def __init__(self, loc, log_scale):
        loc, log_scale = kusari.as_variable(loc), kusari.as_variable(log_scale)
        if loc.shape != log_scale.shape or loc.ndim < 1:
            raise ValueError(f"SquashedDiagonalGaussian: loc and log_scale must have one shape "
                             f"with an action axis, got loc.shape={loc.shape}, "
                             f"log_scale.shape={log_scale.shape}")
        utils.check_float("SquashedDiagonalGaussian", "loc", loc.array)
        utils.check_same_dtype("SquashedDiagonalGaussian", loc=loc.array, log_scale=log_scale.array)
        self.loc, self.log_scale = loc, log_scale
        self._cache = None  # (squashed draw, its pre-tanh value)

    @property
    def batch_shape(self):
        return self.loc.shape[:-1]

    @property
    def event_shape(self):
        return self.loc.shape[-1:]

    @property
    def params(self):
        return {"loc": self.loc, "log_scale": self.log_scale}

    @property
    def support(self):
        return "(-1, 1)"

    @property
    def mode(self):
        return F.tanh(self.loc)

    def _draw(self, sample_shape):
        """A draw of shape sample_shape + batch_shape + event_shape, remembered with its pre-tanh value."""
        eps = D.standard_normal(self.loc, self._sample_shape(sample_shape) + self.loc.shape)
        y, pre = squashed_gaussian_draw(self.loc, self.log_scale, eps)
        self._cache = (y, pre)
        return y

    def rsample(self, sample_shape=()):
        return self._draw(sample_shape)

    def sample(self, sample_shape=()):
        with kusari.no_backprop_mode():
            y = self._draw(sample_shape)
        # neither the draw nor its pre-tanh value carries a gradient
        self._cache = (_constant(y), _constant(self._cache[1]))
        return self._cache[0]

    def sample_n(self, n):
        return self.rsample((n,))

    def log_prob(self, x) -> kusari.Variable:
        """Log density at actions ``x`` in (-1, 1), of shape sample_shape + batch_shape.

        ``log N(u; loc, scale) - sum log(1 - tanh(u)^2)`` summed over the action axis, with
        ``u`` the cached pre-tanh value when ``x`` is the last draw, else ``arctanh(x)``.
        """
        if self._cache is not None and kusari.as_array(x) is self._cache[0].array:
            pre = self._cache[1]
        else:
            if not isinstance(x, kusari.Variable):
                x = kusari.Variable(self.xp.asarray(x, dtype=self.loc.dtype), requires_grad=False)
            elif x.dtype != self.loc.dtype:
                raise TypeError(f"SquashedDiagonalGaussian.log_prob: x has dtype {x.dtype} but "
                                f"the parameters have {self.loc.dtype}")
            # arctanh(+-1) is infinite; the largest float below 1 keeps the density finite.
            edge = 1.0 - float(numpy.finfo(x.dtype).epsneg)
            pre = F.arctanh(F.clip(x, -edge, edge))
        return squashed_gaussian_log_density(pre, self.loc, self.log_scale)
