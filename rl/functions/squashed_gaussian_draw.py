"""squashed_gaussian_draw: a reparameterized draw of a tanh-squashed Gaussian and its pre-tanh value, in one node."""
import kusari
import kusari.functions as F
from kusari import backend, utils
from kusari.function_node import FunctionNode


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
        gy, gu = grad_outputs
        g = None if gy is None else gy * (1.0 - y * y)   # the gradient with respect to u
        if gu is not None:
            g = gu if g is None else g + gu
        return self._input_gradients(indexes, g, F.exp(log_scale), eps)

    @staticmethod
    def _input_gradients(indexes, g, scale, eps):
        """The gradients of the inputs in ``indexes`` from ``g``, the gradient with respect to ``u``."""
        sample_axes = tuple(range(eps.ndim - scale.ndim))

        def to_parameter_shape(v):
            return F.sum(v, axis=sample_axes) if sample_axes else v
        gradients = {0: lambda: to_parameter_shape(g),
                     1: lambda: to_parameter_shape(g * eps) * scale,
                     2: lambda: g * scale}
        return tuple(gradients[i]() for i in indexes)


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
