import numpy
from scipy import stats

from kusari.distributions import Geometric, kl_divergence

P = numpy.array([0.2, 0.5, 0.9])
X = numpy.array([[1.0, 3.0, 2.0], [5.0, 1.0, 1.0]])


def test_against_scipy(against_scipy):
    against_scipy(Geometric(P), stats.geom(P), X,
                  ("log_prob", "prob", "entropy", "mean", "variance", "stddev"))


def test_float32(keeps_float32):
    keeps_float32(Geometric(P.astype(numpy.float32)), X, sample_dtype=numpy.int32)


def test_sample_moments(sample_moments):
    s = sample_moments(Geometric(P), 1 / P, (1 - P) / P ** 2)
    assert s.min() >= 1


def test_grad_log_prob(grad_check):
    grad_check(lambda p: Geometric(p).log_prob(X), (P,))


def test_kl():
    q = numpy.array([0.4, 0.1, 0.6])
    got = kl_divergence(Geometric(P), Geometric(q)).array
    k = numpy.arange(1, 2000)[:, None]
    ref_p, ref_q = stats.geom(P), stats.geom(q)
    want = (ref_p.pmf(k) * (ref_p.logpmf(k) - ref_q.logpmf(k))).sum(0)
    numpy.testing.assert_allclose(got, want, rtol=1e-8)
