import numpy
import pytest
from scipy import stats

import kusari
from kusari.distributions import Uniform, kl_divergence

LOW = numpy.array([-1.0, 0.0, 2.0])
HIGH = numpy.array([1.0, 0.5, 5.0])
X = numpy.array([[0.3, 0.1, 2.5], [-0.9, 0.49, 4.0]])


def test_against_scipy(against_scipy):
    d = Uniform(LOW, HIGH)
    against_scipy(d, stats.uniform(LOW, HIGH - LOW), X,
                  ("log_prob", "prob", "cdf", "icdf", "entropy", "mean", "variance", "stddev"))


def test_loc_scale_form_and_outside_support():
    d = Uniform(loc=LOW, scale=HIGH - LOW)
    numpy.testing.assert_allclose(d.high.array, HIGH)
    x = numpy.array([-2.0, 0.7, 5.5])
    assert numpy.all(d.log_prob(x).array == -numpy.inf)
    numpy.testing.assert_array_equal(d.cdf(x).array, [0.0, 1.0, 1.0])


def test_float32(keeps_float32):
    keeps_float32(Uniform(LOW.astype(numpy.float32), HIGH.astype(numpy.float32)), X)


def test_sample_moments(sample_moments):
    s = sample_moments(Uniform(LOW, HIGH), (LOW + HIGH) / 2, (HIGH - LOW) ** 2 / 12)
    assert numpy.all((s > LOW) & (s < HIGH))


def test_grad_log_prob_and_sample(grad_check):
    grad_check(lambda lo, hi, x: Uniform(lo, hi).log_prob(x), (LOW, HIGH, X),
               no_grads=[False, False, True])
    grad_check(lambda lo, hi: Uniform(lo, hi).sample(4), (LOW, HIGH), seed=0)


def test_sample_carries_gradient():
    low, high = kusari.Variable(LOW.copy()), kusari.Variable(HIGH.copy())
    s = Uniform(low, high).sample(5)
    kusari.functions.sum(s).backward()
    u = (s.array - LOW) / (HIGH - LOW)
    numpy.testing.assert_allclose(high.grad, u.sum(0))
    numpy.testing.assert_allclose(low.grad, (1 - u).sum(0))


def test_kl():
    p = Uniform(numpy.array([0.0, 0.0]), numpy.array([1.0, 2.0]))
    q = Uniform(numpy.array([-1.0, 0.5]), numpy.array([3.0, 3.0]))
    # log(4 / 1) for a contained support; infinite when p puts mass outside q's support.
    numpy.testing.assert_allclose(kl_divergence(p, q).array, [numpy.log(4.0), numpy.inf])


def test_errors():
    with pytest.raises(ValueError, match="Uniform: give either"):
        Uniform(LOW, HIGH, loc=LOW)
    with pytest.raises(ValueError, match=r"Uniform.*low.shape=\(3,\).*high.shape=\(2,\)"):
        Uniform(LOW, HIGH[:2])
