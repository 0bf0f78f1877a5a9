import numpy
import pytest
from scipy import stats

import kusari
from kusari.distributions import Exponential, kl_divergence

LAM = numpy.array([0.5, 1.0, 3.0])
X = numpy.array([[0.1, 2.0, 0.7], [3.0, 0.0, 0.05]])


def test_against_scipy(against_scipy):
    against_scipy(Exponential(LAM), stats.expon(scale=1 / LAM), X,
                  ("log_prob", "prob", "cdf", "survival_function", "icdf", "entropy", "mean",
                   "variance", "stddev"))
    numpy.testing.assert_array_equal(Exponential(LAM).mode.array, 0.0)


def test_outside_support():
    d = Exponential(LAM)
    x = numpy.array([-1.0, -0.5, -2.0])
    assert numpy.all(d.log_prob(x).array == -numpy.inf)
    numpy.testing.assert_array_equal(d.cdf(x).array, 0.0)
    numpy.testing.assert_array_equal(d.survival_function(x).array, 1.0)


def test_float32(keeps_float32):
    keeps_float32(Exponential(LAM.astype(numpy.float32)), X, ("log_prob", "cdf", "entropy",
                                                               "mean", "variance", "mode"))


def test_sample_moments(sample_moments):
    s = sample_moments(Exponential(LAM), 1 / LAM, 1 / LAM ** 2)
    assert s.min() > 0


def test_grad_log_prob_and_sample(grad_check):
    grad_check(lambda lam, x: Exponential(lam).log_prob(x), (LAM, X))
    grad_check(lambda lam: Exponential(lam).sample(4), (LAM,), seed=0)


def test_sample_carries_gradient():
    lam = kusari.Variable(LAM.copy())
    s = Exponential(lam).sample(6)
    kusari.functions.sum(s).backward()
    numpy.testing.assert_allclose(lam.grad, -s.array.sum(0) / LAM)  # d (e / lam) / d lam


def test_kl(kl_numeric):
    lam2 = numpy.array([2.0, 0.3, 3.0])
    got = kl_divergence(Exponential(LAM), Exponential(lam2)).array
    want = [kl_numeric(stats.expon(scale=1 / a).logpdf, stats.expon(scale=1 / b).logpdf, 0,
                       numpy.inf) for a, b in zip(LAM, lam2)]
    numpy.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-12)


def test_errors():
    with pytest.raises(TypeError, match="Exponential: lam must be a float"):
        Exponential(numpy.array([1, 2]))
    with pytest.raises(TypeError, match=r"Exponential: x has dtype float32.*float64"):
        Exponential(LAM).log_prob(kusari.Variable(X.astype(numpy.float32)))
