"""gelu: the Gaussian error linear unit x * Phi(x), exact (erf) or with the tanh approximation."""
import math

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.activation._normal_cdf import normal_cdf_array

_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_TANH_SCALE = math.sqrt(2.0 / math.pi)
_TANH_CUBIC = 0.044715
_APPROXIMATIONS = ("none", "tanh")


def _tanh_arg(x):
    """``sqrt(2 / pi) * (x + 0.044715 * x**3)`` on an array or a Variable."""
    return (x + x * x * x * _TANH_CUBIC) * _TANH_SCALE


class NormalCdf(FunctionNode):
    """``Phi(x)``, the standard normal CDF, elementwise; its derivative is the density."""

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return normal_cdf_array(backend.get_array_module(x), x),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.math.exponential import exp
        x, = self.get_retained_inputs()
        return grad_outputs[0] * exp(x * x * -0.5) * _INV_SQRT_2PI,


class GELU(FunctionNode):
    def __init__(self, approximate):
        self.approximate = approximate

    def forward(self, inputs):
        x, = inputs
        utils.check_float("gelu", "x", x)
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        if self.approximate == "tanh":
            half = x.dtype.type(0.5)
            return utils.force_array(x * half * (xp.tanh(_tanh_arg(x)) + 1), x.dtype),
        return utils.force_array(x * normal_cdf_array(xp, x), x.dtype),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.activation.tanh import tanh
        from kusari.functions.math.exponential import exp
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if self.approximate == "tanh":
            t = tanh(_tanh_arg(x))
            # d/dx [x (1 + t) / 2] with dt/dx = (1 - t^2) * sqrt(2/pi) * (1 + 3 * 0.044715 * x^2)
            du = (x * x * (3 * _TANH_CUBIC) + 1.0) * _TANH_SCALE
            return gy * ((t + 1.0) * 0.5 + x * (1.0 - t * t) * du * 0.5),
        # d/dx [x Phi(x)] = Phi(x) + x * phi(x)
        cdf = NormalCdf().apply((x,))[0]
        return gy * (cdf + x * exp(x * x * -0.5) * _INV_SQRT_2PI),


def gelu(x, approximate: str = "none"):
    """Gaussian error linear unit ``x * Phi(x)`` (Hendrycks & Gimpel, 2016), as PyTorch's ``gelu``.

    Parameters
    ----------
    x : float array or Variable, any shape
    approximate : {'none', 'tanh'}
        'none': the exact form ``x / 2 * (1 + erf(x / sqrt(2)))``; 'tanh': the approximation
        ``x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x**3)))``.

    Returns
    -------
    Variable of x's shape and dtype.
    """
    if approximate not in _APPROXIMATIONS:
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    return GELU(approximate).apply((x,))[0]
