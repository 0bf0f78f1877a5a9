import numpy
import pytest
from scipy import stats

from kusari.distributions import Cauchy

LOC = numpy.array([-1.0, 0.0, 2.0])
SCALE = numpy.array([0.5, 1.0, 3.0])
X = numpy.array([[0.3, -2.0, 2.5], [-1.5, 0.5, -4.0]])


def test_against_scipy(against_scipy):
    against_scipy(Cauchy(LOC, SCALE), stats.cauchy(LOC, SCALE), X,
                  ("log_prob", "prob", "cdf", "icdf", "entropy"))


def test_float32(keeps_float32):
    keeps_float32(Cauchy(LOC.astype(numpy.float32), SCALE.astype(numpy.float32)), X,
                  ("log_prob", "cdf", "entropy", "mode"))


def test_sample_quartiles():
    # No moments exist; the quartiles loc -/+ scale are checked instead (binomial standard error).
    numpy.random.seed(0)
    n = 20000
    s = Cauchy(LOC, SCALE).sample(n).array
    for q, edge in ((0.25, LOC - SCALE), (0.75, LOC + SCALE)):
        frac = (s < edge).mean(0)
        numpy.testing.assert_array_less(numpy.abs(frac - q), 5 * numpy.sqrt(q * (1 - q) / n))


def test_grad_log_prob_and_sample(grad_check):
    grad_check(lambda m, s, x: Cauchy(m, s).log_prob(x), (LOC, SCALE, X))
    grad_check(lambda m, s: Cauchy(m, s).sample(4), (LOC, SCALE), seed=0)


def test_no_mean():
    with pytest.raises(NotImplementedError, match="Cauchy does not implement mean"):
        Cauchy(LOC, SCALE).mean
