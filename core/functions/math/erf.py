"""erf, erfc, erfcx, erfinv and erfcinv: the error function family (SciPy on the host)."""
import math

from kusari.functions.math._elementwise import SpecialUnaryOp
from kusari.functions.math.exponential import exp

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_HALF_SQRT_PI = math.sqrt(math.pi) / 2.0


class Erf(SpecialUnaryOp):
    fname = scipy_name = "erf"
    retain = ("x",)

    def grad(self, x, y, gy):
        return gy * exp(-(x * x)) * _TWO_OVER_SQRT_PI


class Erfc(SpecialUnaryOp):
    fname = scipy_name = "erfc"
    retain = ("x",)

    def grad(self, x, y, gy):
        return gy * exp(-(x * x)) * -_TWO_OVER_SQRT_PI


class Erfcx(SpecialUnaryOp):
    fname = scipy_name = "erfcx"
    retain = ("x", "y")

    def grad(self, x, y, gy):
        return gy * (x * y * 2.0 - _TWO_OVER_SQRT_PI)


class Erfinv(SpecialUnaryOp):
    fname = scipy_name = "erfinv"
    retain = ("y",)

    def grad(self, x, y, gy):
        return gy * exp(y * y) * _HALF_SQRT_PI


class Erfcinv(SpecialUnaryOp):
    fname = scipy_name = "erfcinv"
    retain = ("y",)

    def grad(self, x, y, gy):
        return gy * exp(y * y) * -_HALF_SQRT_PI


def erf(x):
    """Elementwise error function ``2/sqrt(pi) * integral_0^x exp(-t**2) dt``; same shape as ``x``."""
    return Erf().apply((x,))[0]


def erfc(x):
    """Elementwise complementary error function ``1 - erf(x)``; same shape as ``x``."""
    return Erfc().apply((x,))[0]


def erfcx(x):
    """Elementwise scaled complementary error function ``exp(x**2) * erfc(x)``; same shape as ``x``."""
    return Erfcx().apply((x,))[0]


def erfinv(x):
    """Elementwise inverse of ``erf``; ``x`` in (-1, 1), same shape as ``x``."""
    return Erfinv().apply((x,))[0]


def erfcinv(x):
    """Elementwise inverse of ``erfc``; ``x`` in (0, 2), same shape as ``x``."""
    return Erfcinv().apply((x,))[0]
