import numpy
import pytest
from scipy import stats

from kusari.distributions import Gamma, kl_divergence

K = numpy.array([0.7, 2.0, 5.0])
THETA = numpy.array([1.5, 0.5, 2.0])
X = numpy.array([[0.3, 1.2, 8.0], [2.0, 0.1, 12.0]])


def test_against_scipy(against_scipy):
    d = Gamma(K, THETA)
    against_scipy(d, stats.gamma(K, scale=THETA), X,
                  ("log_prob", "prob", "entropy", "mean", "variance", "stddev"))
    numpy.testing.assert_allclose(d.mode.array[1:], ((K - 1) * THETA)[1:])


def test_float32(keeps_float32):
    keeps_float32(Gamma(K.astype(numpy.float32), THETA.astype(numpy.float32)), X)


def test_sample_moments(sample_moments):
    sample_moments(Gamma(K, THETA), K * THETA, K * THETA ** 2)


def test_grad_log_prob(grad_check):
    grad_check(lambda k, t, x: Gamma(k, t).log_prob(x), (K, THETA, X))
    grad_check(lambda k, t: Gamma(k, t).entropy, (K, THETA))


def test_kl(kl_numeric):
    k2, t2 = numpy.array([1.0, 3.0, 4.0]), numpy.array([1.0, 0.4, 3.0])
    got = kl_divergence(Gamma(K, THETA), Gamma(k2, t2)).array
    want = [kl_numeric(stats.gamma(a, scale=b).logpdf, stats.gamma(c, scale=e).logpdf, 0,
                       numpy.inf) for a, b, c, e in zip(K, THETA, k2, t2)]
    numpy.testing.assert_allclose(got, want, rtol=1e-5)


def test_errors():
    with pytest.raises(ValueError, match=r"Gamma.*k.shape=\(3,\).*theta.shape=\(2,\)"):
        Gamma(K, THETA[:2])
