"""ndtr, log_ndtr and ndtri: the standard normal CDF, its logarithm and its inverse."""
import math

from kusari.functions.math._elementwise import SpecialUnaryOp
from kusari.functions.math.erf import erfcx
from kusari.functions.math.exponential import exp

_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2PI = math.sqrt(2.0 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT2 = 1.0 / math.sqrt(2.0)


class Ndtr(SpecialUnaryOp):
    fname = scipy_name = "ndtr"
    retain = ("x",)

    def grad(self, x, y, gy):
        return gy * exp(x * x * -0.5) * _INV_SQRT_2PI


class LogNdtr(SpecialUnaryOp):
    fname = scipy_name = "log_ndtr"
    retain = ("x",)

    def grad(self, x, y, gy):
        # pdf(x) / cdf(x) written with erfcx so that it neither underflows to 0/0 for x << 0
        # nor overflows for x >> 0.
        return gy / erfcx(x * -_INV_SQRT2) * _SQRT_2_OVER_PI


class Ndtri(SpecialUnaryOp):
    fname = scipy_name = "ndtri"
    retain = ("y",)

    def grad(self, x, y, gy):
        return gy * exp(y * y * 0.5) * _SQRT_2PI


def ndtr(x):
    """Elementwise standard normal CDF ``P(Z <= x)``; same shape as ``x``."""
    return Ndtr().apply((x,))[0]


def log_ndtr(x):
    """Elementwise ``log(ndtr(x))``, accurate far into the left tail; same shape as ``x``."""
    return LogNdtr().apply((x,))[0]


def ndtri(x):
    """Elementwise inverse of ``ndtr`` (the standard normal quantile); ``x`` in (0, 1), same shape."""
    return Ndtri().apply((x,))[0]
