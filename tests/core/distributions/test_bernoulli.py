import numpy
import pytest
from scipy import special, stats

from kusari.distributions import Bernoulli, kl_divergence

P = numpy.array([0.1, 0.5, 0.9])
X = numpy.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])


def test_against_scipy(against_scipy):
    d = Bernoulli(P)
    against_scipy(d, stats.bernoulli(P), X, ("log_prob", "prob", "entropy", "mean", "variance"))
    against_scipy(Bernoulli(logit=special.logit(P)), stats.bernoulli(P), X,
                  ("log_prob", "entropy", "mean"))


def test_binary_check():
    x = numpy.array([0.5, 1.0, 2.0])
    lp = Bernoulli(P, binary_check=True).log_prob(x).array
    assert lp[0] == -numpy.inf and lp[2] == -numpy.inf
    numpy.testing.assert_allclose(lp[1], numpy.log(0.5))
    # Without the check the continuous extension x log p + (1 - x) log(1 - p) is evaluated.
    numpy.testing.assert_allclose(Bernoulli(P).log_prob(x).array[0], 0.5 * numpy.log(0.1 * 0.9))


def test_float32(keeps_float32):
    keeps_float32(Bernoulli(P.astype(numpy.float32)), X, sample_dtype=numpy.int32)


def test_sample_moments(sample_moments):
    sample_moments(Bernoulli(P), P, P * (1 - P))


def test_grad_log_prob(grad_check):
    grad_check(lambda p: Bernoulli(p).log_prob(X), (P,))
    grad_check(lambda lg: Bernoulli(logit=lg).entropy, (numpy.array([-2.0, 0.3, 4.0]),))


def test_kl():
    q = numpy.array([0.3, 0.5, 0.2])
    got = kl_divergence(Bernoulli(P), Bernoulli(q)).array
    want = special.rel_entr(P, q) + special.rel_entr(1 - P, 1 - q)
    numpy.testing.assert_allclose(got, want, rtol=1e-10)


def test_errors():
    with pytest.raises(ValueError, match="Bernoulli: give exactly one of p and logit"):
        Bernoulli(P, logit=P)
