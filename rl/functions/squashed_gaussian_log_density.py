"""squashed_gaussian_log_density: the log density of a tanh-squashed diagonal Gaussian at a pre-tanh value, in one node."""
import math

import kusari
import kusari.functions as F
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.activation.softplus import softplus_array

_LOG_2 = math.log(2.0)
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


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

    @staticmethod
    def _local_slope(index, tanh, u, z, z_over_scale):
        """The derivative of the summand with respect to input ``index`` (Variables or arrays)."""
        if index == 0:
            return 2.0 * tanh(u) - z_over_scale
        if index == 1:
            return z_over_scale
        return z * z - 1.0


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
