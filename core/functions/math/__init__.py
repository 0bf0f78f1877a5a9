"""kusari.functions.math: elementwise math, reductions, linear algebra (one op per module)."""
from kusari.functions.math.absolute import absolute  # NOQA
from kusari.functions.math.argmax import argmax, argmin  # NOQA
from kusari.functions.math.average import average  # NOQA
from kusari.functions.math.basic_math import add  # NOQA
from kusari.functions.math.batch_l2_norm_squared import batch_l2_norm_squared  # NOQA
from kusari.functions.math.bias import bias  # NOQA
from kusari.functions.math.cholesky import cholesky  # NOQA
from kusari.functions.math.clip import clip  # NOQA
from kusari.functions.math.cumprod import cumprod  # NOQA
from kusari.functions.math.cumsum import cumsum  # NOQA
from kusari.functions.math.det import batch_det, det  # NOQA
from kusari.functions.math.einsum import einsum  # NOQA
from kusari.functions.math.erf import erf, erfc, erfcinv, erfcx, erfinv  # NOQA
from kusari.functions.math.exponential import exp, expm1, log, log1p, log2, log10  # NOQA
from kusari.functions.math.fft import fft, ifft  # NOQA
from kusari.functions.math.fmod import fmod  # NOQA
from kusari.functions.math.gamma import digamma, lgamma, polygamma  # NOQA
from kusari.functions.math.hyperbolic import arctanh, cosh, sinh  # NOQA
from kusari.functions.math.identity import identity  # NOQA
from kusari.functions.math.inv import batch_inv, inv  # NOQA
from kusari.functions.math.linear_interpolate import linear_interpolate  # NOQA
from kusari.functions.math.logsumexp import logsumexp  # NOQA
from kusari.functions.math.matmul import batch_matmul, matmul  # NOQA
from kusari.functions.math.maximum import maximum, minimum  # NOQA
from kusari.functions.math.minmax import max, min  # NOQA
from kusari.functions.math.ndtr import log_ndtr, ndtr, ndtri  # NOQA
from kusari.functions.math.prod import prod  # NOQA
from kusari.functions.math.rounding import ceil, fix, floor  # NOQA
from kusari.functions.math.scale import scale  # NOQA
from kusari.functions.math.sign import sign  # NOQA
from kusari.functions.math.sparse_matmul import sparse_matmul  # NOQA
from kusari.functions.math.sqrt import rsqrt, sqrt  # NOQA
from kusari.functions.math.square import square  # NOQA
from kusari.functions.math.squared_difference import squared_difference  # NOQA
from kusari.functions.math.sum import mean, sum  # NOQA
from kusari.functions.math.tensordot import tensordot  # NOQA
from kusari.functions.math.trigonometric import arccos, arcsin, arctan, arctan2, cos, sin, tan  # NOQA
from kusari.functions.math.zeta import zeta  # NOQA
