import numpy
import pytest
from scipy import stats

from kusari.distributions import Chisquare

K = numpy.array([1.0, 3.0, 7.5])
X = numpy.array([[0.3, 1.2, 8.0], [2.0, 0.1, 12.0]])


def test_against_scipy(against_scipy):
    against_scipy(Chisquare(K), stats.chi2(K), X,
                  ("log_prob", "prob", "entropy", "mean", "variance", "stddev"))


def test_float32(keeps_float32):
    keeps_float32(Chisquare(K.astype(numpy.float32)), X)


def test_sample_moments(sample_moments):
    sample_moments(Chisquare(K), K, 2 * K)


def test_grad_log_prob(grad_check):
    grad_check(lambda k, x: Chisquare(k).log_prob(x), (K, X))


def test_errors():
    with pytest.raises(TypeError, match="Chisquare: k must be a float"):
        Chisquare(numpy.array([1, 2]))
