import numpy
import pytest
from scipy import stats

import kusari
from kusari.distributions import Laplace, kl_divergence

LOC = numpy.array([-1.0, 0.0, 2.0])
SCALE = numpy.array([0.5, 1.0, 3.0])
X = numpy.array([[0.3, -2.0, 2.5], [-1.5, 0.5, -4.0]])


def test_against_scipy(against_scipy):
    against_scipy(Laplace(LOC, SCALE), stats.laplace(LOC, SCALE), X,
                  ("log_prob", "prob", "cdf", "icdf", "entropy", "mean", "variance", "stddev"))


def test_float32(keeps_float32):
    keeps_float32(Laplace(LOC.astype(numpy.float32), SCALE.astype(numpy.float32)), X,
                  ("log_prob", "cdf", "entropy", "mean", "variance", "stddev"))


def test_sample_moments(sample_moments):
    sample_moments(Laplace(LOC, SCALE), LOC, 2 * SCALE ** 2)


def test_grad_log_prob_and_sample(grad_check):
    grad_check(lambda m, s, x: Laplace(m, s).log_prob(x), (LOC, SCALE, X))
    grad_check(lambda m, s: Laplace(m, s).sample(4), (LOC, SCALE), seed=0)


def test_sample_carries_gradient():
    loc, scale = kusari.Variable(LOC.copy()), kusari.Variable(SCALE.copy())
    s = Laplace(loc, scale).sample(5)
    kusari.functions.sum(s).backward()
    numpy.testing.assert_allclose(loc.grad, numpy.full(3, 5.0))
    numpy.testing.assert_allclose(scale.grad, ((s.array - LOC) / SCALE).sum(0))


def test_kl(kl_numeric):
    m2, s2 = numpy.array([0.5, 0.0, -1.0]), numpy.array([1.0, 0.4, 2.0])
    got = kl_divergence(Laplace(LOC, SCALE), Laplace(m2, s2)).array
    want = [kl_numeric(stats.laplace(a, b).logpdf, stats.laplace(c, e).logpdf, -60, 60)
            for a, b, c, e in zip(LOC, SCALE, m2, s2)]
    numpy.testing.assert_allclose(got, want, rtol=1e-6)


def test_errors():
    with pytest.raises(ValueError, match=r"Laplace.*loc.shape=\(3,\).*scale.shape=\(2,\)"):
        Laplace(LOC, SCALE[:2])
