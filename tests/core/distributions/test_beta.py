import numpy
import pytest
from scipy import stats

from kusari.distributions import Beta, kl_divergence

A = numpy.array([0.5, 2.0, 5.0])
B = numpy.array([1.5, 2.0, 0.8])
X = numpy.array([[0.3, 0.6, 0.9], [0.01, 0.5, 0.99]])


def test_against_scipy(against_scipy):
    against_scipy(Beta(A, B), stats.beta(A, B), X,
                  ("log_prob", "prob", "entropy", "mean", "variance", "stddev"))


def test_float32(keeps_float32):
    keeps_float32(Beta(A.astype(numpy.float32), B.astype(numpy.float32)), X)


def test_sample_moments(sample_moments):
    ref = stats.beta(A, B)
    s = sample_moments(Beta(A, B), ref.mean(), ref.var())
    assert numpy.all((s >= 0) & (s <= 1))


def test_grad_log_prob(grad_check):
    grad_check(lambda a, b, x: Beta(a, b).log_prob(x), (A, B, X))
    grad_check(lambda a, b: Beta(a, b).entropy, (A, B))


def test_kl(kl_numeric):
    a2, b2 = numpy.array([1.0, 3.0, 2.0]), numpy.array([1.0, 0.7, 2.0])
    got = kl_divergence(Beta(A, B), Beta(a2, b2)).array
    want = [kl_numeric(stats.beta(a, b).logpdf, stats.beta(c, e).logpdf, 0, 1)
            for a, b, c, e in zip(A, B, a2, b2)]
    numpy.testing.assert_allclose(got, want, rtol=1e-5)


def test_errors():
    with pytest.raises(ValueError, match=r"Beta.*a.shape=\(3,\).*b.shape=\(2,\)"):
        Beta(A, B[:2])
