import numpy
from scipy import stats

from kusari.distributions import Poisson, kl_divergence

LAM = numpy.array([0.5, 3.0, 12.0])
X = numpy.array([[0.0, 2.0, 10.0], [3.0, 0.0, 15.0]])


def test_against_scipy(against_scipy):
    against_scipy(Poisson(LAM), stats.poisson(LAM), X,
                  ("log_prob", "prob", "mean", "variance", "stddev"))


def test_float32(keeps_float32):
    keeps_float32(Poisson(LAM.astype(numpy.float32)), X, ("log_prob", "mean"),
                  sample_dtype=numpy.int32)


def test_sample_moments(sample_moments):
    sample_moments(Poisson(LAM), LAM, LAM)


def test_grad_log_prob(grad_check):
    grad_check(lambda lam: Poisson(lam).log_prob(X), (LAM,))


def test_kl():
    lam2 = numpy.array([1.0, 2.0, 15.0])
    got = kl_divergence(Poisson(LAM), Poisson(lam2)).array
    k = numpy.arange(0, 200)[:, None]
    p, q = stats.poisson(LAM), stats.poisson(lam2)
    numpy.testing.assert_allclose(got, (p.pmf(k) * (p.logpmf(k) - q.logpmf(k))).sum(0), rtol=1e-9)
