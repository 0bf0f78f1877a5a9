"""The standard normal CDF Phi(x) on arrays, without SciPy on the host (gelu's exact form needs it).

NumPy has no erf. On the host, Phi(x) = erfc(-x / sqrt(2)) / 2 is evaluated with W. J. Cody's rational
Chebyshev approximations of erf and erfc ("Rational Chebyshev approximations for the error function",
Math. Comp. 23 (1969), 631-638; the coefficients of netlib's SPECFUN ``calerf``), accurate to float64
rounding. Going through erfc keeps the left tail relatively accurate, where 1 + erf(z) would cancel.
On the GPU, ``cupyx.scipy.special.ndtr`` (part of CuPy) is used.
"""
import math

import numpy

_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_PI = 1.0 / math.sqrt(math.pi)
_SMALL = 0.46875  # |z| up to here: erf(z) = z * R(z^2)
_MEDIUM = 4.0     # then erfc(z) = exp(-z^2) * R(z) up to here, and exp(-z^2) / z * (1/sqrt(pi) - R(1/z^2)) beyond

# Numerator and denominator coefficients, highest degree first.
_ERF_NUM = (1.85777706184603153e-1, 3.16112374387056560e0, 1.13864154151050156e2,
            3.77485237685302021e2, 3.20937758913846947e3)
_ERF_DEN = (1.0, 2.36012909523441209e1, 2.44024637934444173e2, 1.28261652607737228e3,
            2.84423683343917062e3)
_ERFC_MEDIUM_NUM = (2.15311535474403846e-8, 5.64188496988670089e-1, 8.88314979438837594e0,
                    6.61191906371416295e1, 2.98635138197400131e2, 8.81952221241769090e2,
                    1.71204761263407058e3, 2.05107837782607147e3, 1.23033935479799725e3)
_ERFC_MEDIUM_DEN = (1.0, 1.57449261107098347e1, 1.17693950891312499e2, 5.37181101862009858e2,
                    1.62138957456669019e3, 3.29079923573345963e3, 4.36261909014324716e3,
                    3.43936767414372164e3, 1.23033935480374942e3)
_ERFC_LARGE_NUM = (1.63153871373020978e-2, 3.05326634961232344e-1, 3.60344899949804439e-1,
                   1.25781726111229246e-1, 1.60837851487422766e-2, 6.58749161529837803e-4)
_ERFC_LARGE_DEN = (1.0, 2.56852019228982242e0, 1.87295284992346047e0, 5.27905102951428412e-1,
                   6.05183413124413191e-2, 2.33520497626869185e-3)


def _rational(num, den, t):
    """``num(t) / den(t)`` by Horner's rule; coefficients highest degree first."""
    p = numpy.full_like(t, num[0])
    q = numpy.full_like(t, den[0])
    for a, b in zip(num[1:], den[1:]):  # in place: this loop is the bulk of the op's time
        p *= t
        p += a
        q *= t
        q += b
    p /= q
    return p


def _exp_minus_square(a):
    """``exp(-a * a)`` with the rounding error of ``a * a`` kept out of the exponent (Cody's split)."""
    head = numpy.trunc(a * 16.0) / 16.0
    return numpy.exp(-head * head) * numpy.exp(-(a - head) * (a + head))


def _erfc_medium(a):
    """erfc(a) for ``_SMALL < a <= _MEDIUM``."""
    return _exp_minus_square(a) * _rational(_ERFC_MEDIUM_NUM, _ERFC_MEDIUM_DEN, a)


def _erfc_large(a):
    """erfc(a) for ``a > _MEDIUM``."""
    # erfc(a) underflows to 0 well before a = 40 in float64; the cap keeps inf out of inf - inf.
    a = numpy.minimum(a, 40.0)
    t = 1.0 / (a * a)
    return _exp_minus_square(a) / a * (_INV_SQRT_PI - t * _rational(_ERFC_LARGE_NUM, _ERFC_LARGE_DEN, t))


def _normal_cdf_host(x):
    # float16 is evaluated in float32: the polynomials' intermediate values exceed float16's range.
    z = numpy.ravel(x).astype(numpy.promote_types(x.dtype, numpy.float32))
    z *= _SQRT_HALF
    a = numpy.abs(z)
    out = numpy.empty_like(z)
    # Index arrays with take / put: several times faster than boolean masks on mixed-sign data.
    i = numpy.flatnonzero(a <= _SMALL)
    zi = z.take(i)
    out.put(i, 0.5 + 0.5 * zi * _rational(_ERF_NUM, _ERF_DEN, zi * zi))
    for i, erfc in ((numpy.flatnonzero((a > _SMALL) & (a <= _MEDIUM)), _erfc_medium),
                    (numpy.flatnonzero(~(a <= _MEDIUM)), _erfc_large)):  # NaN goes to the last group
        half_erfc = 0.5 * erfc(a.take(i))
        out.put(i, numpy.where(z.take(i) < 0, half_erfc, 1.0 - half_erfc))
    return out.reshape(x.shape).astype(x.dtype, copy=False)


def normal_cdf_array(xp, x):
    """``Phi(x) = (1 + erf(x / sqrt(2))) / 2`` elementwise, in x's dtype; NaN stays NaN."""
    if xp is numpy:
        with numpy.errstate(over="ignore", under="ignore"):
            return _normal_cdf_host(x)
    import cupyx.scipy.special
    return cupyx.scipy.special.ndtr(x).astype(x.dtype, copy=False)
