"""Policy distributions: kusari distributions with PFRL's (torch's) sampling names.

PFRL's agents draw actions with ``sample()`` (a constant, no gradient) and build
reparameterized policy losses with ``rsample()`` (differentiable w.r.t. the parameters).
The core distributions follow Chainer, whose ``sample()`` is already reparameterized;
the classes here add the split, plus ``most_probable`` (ChainerRL's name for the mode).
``entropy`` stays a property, as everywhere in kusari.
"""
import math

import kusari
import kusari.distributions as D
import kusari.functions as F
import numpy
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.activation.softplus import softplus_array

_LOG_2 = math.log(2.0)
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


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


class SquashedGaussianLogDensity(FunctionNode):
    """``log N(u; loc, exp(log_scale)^2) - log(1 - tanh(u)^2)`` summed over the last axis: the log
    density of ``tanh(u)`` at the pre-tanh value ``u``, in one node.

    Inputs ``u``, ``loc``, ``log_scale`` of one shape (..., action_size) and float dtype; output of
    shape (...). ``log(1 - tanh(u)^2)`` is computed as ``2 (log 2 - u - softplus(-2u))``, which stays
    finite where ``1 - tanh(u)^2`` underflows to 0. The gradients are ``(2 tanh(u) - z / scale) gy``
    to ``u``, ``z / scale gy`` to ``loc`` and ``(z^2 - 1) gy`` to ``log_scale``, with
    ``z = (u - loc) / scale``.
    """

    def forward(self, inputs):
        u, loc, log_scale = inputs
        xp = backend.get_array_module(u)
        self.retain_inputs((0, 1, 2))
        z = (u - loc) * xp.exp(-log_scale)
        log_det = 2.0 * (_LOG_2 - u - softplus_array(xp, -2.0 * u))
        return utils.force_array((-0.5 * z * z - log_scale - _HALF_LOG_2PI - log_det).sum(axis=-1)),

    def backward(self, indexes, grad_outputs):
        u, loc, log_scale = self.get_retained_inputs()
        gy = F.broadcast_to(F.expand_dims(grad_outputs[0], -1), u.shape)
        inv_scale = F.exp(-log_scale)
        z = (u - loc) * inv_scale
        return tuple(gy * self._local_slope(i, F.tanh, u, z, z * inv_scale) for i in indexes)

    def backward_arrays(self, indexes, grad_outputs):
        u, loc, log_scale = (x.data for x in self.inputs)
        xp = backend.get_array_module(u)
        gy = xp.broadcast_to(grad_outputs[0][..., None], u.shape)
        inv_scale = xp.exp(-log_scale)
        z = (u - loc) * inv_scale
        return tuple(utils.force_array(gy * self._local_slope(i, xp.tanh, u, z, z * inv_scale))
                     for i in indexes)

    @staticmethod
    def _local_slope(index, tanh, u, z, z_over_scale):
        """The derivative of the summand with respect to input ``index`` (Variables or arrays)."""
        if index == 0:
            return 2.0 * tanh(u) - z_over_scale
        if index == 1:
            return z_over_scale
        return z * z - 1.0


class SquashedGaussianDraw(FunctionNode):
    """``u = loc + exp(log_scale) * eps`` and ``y = tanh(u)``, in one node with both as outputs.

    Inputs ``loc`` and ``log_scale`` of one shape S and ``eps`` of shape sample_shape + S (one float
    dtype); outputs ``y`` and ``u`` of ``eps``'s shape. Gradients: ``g = gy (1 - y^2) + gu`` to
    ``loc`` and ``g eps scale`` to ``log_scale`` (summed over the sample axes), ``g scale`` to ``eps``.
    """

    def forward(self, inputs):
        loc, log_scale, eps = inputs
        xp = backend.get_array_module(loc)
        self.retain_inputs((1, 2))
        self.retain_outputs((0,))
        u = utils.force_array(loc + xp.exp(log_scale) * eps)
        return utils.force_array(xp.tanh(u)), u

    def backward(self, indexes, grad_outputs):
        log_scale, eps = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        g = self._pre_tanh_gradient(grad_outputs, y, lambda v: v)
        return self._input_gradients(indexes, g, F.exp(log_scale), eps, F.sum)

    def backward_arrays(self, indexes, grad_outputs):
        inputs = self.inputs
        log_scale, eps = inputs[1].data, inputs[2].data
        xp = backend.get_array_module(eps)
        g = self._pre_tanh_gradient(grad_outputs, self._retained_output_data[0], utils.force_array)
        return tuple(utils.force_array(gx) for gx in
                     self._input_gradients(indexes, g, xp.exp(log_scale), eps, _sum_array))

    @staticmethod
    def _pre_tanh_gradient(grad_outputs, y, force):
        """The gradient with respect to ``u``: through ``y``'s tanh, plus ``u``'s own."""
        gy, gu = grad_outputs
        g = None if gy is None else force(gy * force(1.0 - force(y * y)))
        if gu is not None:
            g = gu if g is None else g + gu
        return g

    @staticmethod
    def _input_gradients(indexes, g, scale, eps, sum_):
        """The gradients of the inputs in ``indexes`` from ``g``, the gradient with respect to ``u``."""
        sample_axes = tuple(range(eps.ndim - scale.ndim))

        def to_parameter_shape(v):
            return sum_(v, axis=sample_axes) if sample_axes else v
        gradients = {0: lambda: to_parameter_shape(g),
                     1: lambda: to_parameter_shape(g * eps) * scale,
                     2: lambda: g * scale}
        return tuple(gradients[i]() for i in indexes)


def _sum_array(a, axis):
    return a.sum(axis=axis)


def squashed_gaussian_draw(loc, log_scale, eps) -> tuple:
    """``(tanh(u), u)`` with ``u = loc + exp(log_scale) * eps``: a reparameterized draw of the
    tanh-squashed Gaussian and its pre-tanh value.

    loc, log_scale : float Variables or arrays of one shape S; eps : float array (or Variable) of
    shape sample_shape + S, standard normal draws. Returns two Variables of ``eps``'s shape. See
    :class:`SquashedGaussianDraw`.
    """
    arrays = [kusari.as_array(v) for v in (loc, log_scale, eps)]
    loc_shape = arrays[0].shape
    if (arrays[1].shape != loc_shape or arrays[2].ndim < len(loc_shape)
            or arrays[2].shape[arrays[2].ndim - len(loc_shape):] != loc_shape):
        raise ValueError(f"squashed_gaussian_draw: loc and log_scale must have one shape S and eps "
                         f"a shape ending in S, got {', '.join(str(a.shape) for a in arrays)}")
    for name, a in zip(("loc", "log_scale", "eps"), arrays):
        utils.check_float("squashed_gaussian_draw", name, a)
    utils.check_same_dtype("squashed_gaussian_draw", loc=arrays[0], log_scale=arrays[1], eps=arrays[2])
    return SquashedGaussianDraw().apply((loc, log_scale, eps))


def squashed_gaussian_log_density(u, loc, log_scale) -> kusari.Variable:
    """The log density of ``tanh(u)``, ``u ~ N(loc, diag(exp(log_scale))^2)``, at the pre-tanh ``u``.

    u, loc, log_scale : float Variables or arrays of one shape (..., action_size) and dtype;
    returns a Variable of shape (...). See :class:`SquashedGaussianLogDensity`.
    """
    arrays = [kusari.as_array(v) for v in (u, loc, log_scale)]
    if len({a.shape for a in arrays}) != 1 or arrays[0].ndim < 1:
        raise ValueError(f"squashed_gaussian_log_density: u, loc and log_scale must have one shape "
                         f"with an action axis, got {', '.join(str(a.shape) for a in arrays)}")
    for name, a in zip(("u", "loc", "log_scale"), arrays):
        utils.check_float("squashed_gaussian_log_density", name, a)
    utils.check_same_dtype("squashed_gaussian_log_density", u=arrays[0], loc=arrays[1],
                           log_scale=arrays[2])
    return SquashedGaussianLogDensity().apply((u, loc, log_scale))[0]


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
