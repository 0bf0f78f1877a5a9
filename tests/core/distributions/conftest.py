"""Shared checks for the distribution tests, handed to tests as fixtures."""
import numpy
import pytest
from scipy import integrate

from kusari import gradient_check


def _arr(v):
    return numpy.asarray(getattr(v, "array", v), dtype=numpy.float64)


def _against_scipy(dist, ref, x, methods, rtol=1e-7, atol=1e-9):
    """Compare ``dist``'s methods at ``x`` with the frozen scipy distribution ``ref``."""
    pairs = {
        "log_prob": lambda: (dist.log_prob(x), ref.logpdf(x) if hasattr(ref, "logpdf")
                             else ref.logpmf(x)),
        "prob": lambda: (dist.prob(x), ref.pdf(x) if hasattr(ref, "pdf") else ref.pmf(x)),
        "cdf": lambda: (dist.cdf(x), ref.cdf(x)),
        "log_cdf": lambda: (dist.log_cdf(x), ref.logcdf(x)),
        "survival_function": lambda: (dist.survival_function(x), ref.sf(x)),
        "log_survival_function": lambda: (dist.log_survival_function(x), ref.logsf(x)),
        "icdf": lambda: (dist.icdf(ref.cdf(x)), ref.ppf(ref.cdf(x))),
        "entropy": lambda: (dist.entropy, ref.entropy()),
        "mean": lambda: (dist.mean, ref.mean()),
        "variance": lambda: (dist.variance, ref.var()),
        "stddev": lambda: (dist.stddev, ref.std()),
    }
    for m in methods:
        got, want = pairs[m]()
        numpy.testing.assert_allclose(_arr(got), numpy.broadcast_to(want, got.shape),
                                      rtol=rtol, atol=atol, err_msg=m)


def _sample_moments(dist, mean, var, n=20000, seed=0):
    """Sample mean and variance within 5 standard errors of ``mean`` and ``var``."""
    numpy.random.seed(seed)
    s = _arr(dist.sample(n))
    assert s.shape == (n,) + dist.batch_shape + dist.event_shape
    m, v = s.mean(0), s.var(0)
    se_m = numpy.sqrt(var / n)
    se_v = numpy.sqrt(((s - m) ** 2).var(0) / n)
    numpy.testing.assert_array_less(numpy.abs(m - mean), 5 * se_m + 1e-12)
    numpy.testing.assert_array_less(numpy.abs(v - var), 5 * se_v + 1e-12)
    return s


def _kl_numeric(logpdf_p, logpdf_q, lo, hi):
    """KL(p || q) for scalar densities by adaptive quadrature over (lo, hi)."""
    def f(t):
        lp = logpdf_p(t)
        return numpy.exp(lp) * (lp - logpdf_q(t))
    return integrate.quad(f, lo, hi, limit=200)[0]


def _grad_check(func, arrays, seed=None, eps=1e-4, **kw):
    """check_backward of ``func`` in float64 with a random upstream gradient."""
    arrays = tuple(numpy.asarray(a, numpy.float64) for a in arrays)

    def seeded(*xs):
        if seed is not None:
            numpy.random.seed(seed)
        return func(*xs)
    y = seeded(*arrays)
    gy = numpy.random.default_rng(1).standard_normal(y.shape)
    gradient_check.check_backward(seeded, arrays, gy, eps=eps, atol=1e-6, rtol=1e-5, **kw)


def _keeps_float32(dist, x, methods=("log_prob", "entropy", "mean", "variance"),
                   sample_dtype=numpy.float32):
    """Every listed result of a float32 ``dist`` is float32, and so are (float) samples."""
    for m in methods:
        attr = getattr(dist, m)
        out = attr(x) if callable(attr) else attr
        assert out.dtype == numpy.float32, m
    assert dist.sample(3).dtype == sample_dtype


@pytest.fixture
def keeps_float32():
    return _keeps_float32


@pytest.fixture
def against_scipy():
    return _against_scipy


@pytest.fixture
def sample_moments():
    return _sample_moments


@pytest.fixture
def kl_numeric():
    return _kl_numeric


@pytest.fixture
def grad_check():
    return _grad_check
