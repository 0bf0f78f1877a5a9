import numpy
from scipy import stats

from kusari.distributions import Pareto, kl_divergence

SCALE = numpy.array([0.5, 1.0, 2.0])
ALPHA = numpy.array([0.8, 2.5, 4.5])
X = numpy.array([[0.7, 1.2, 2.5], [3.0, 1.0, 10.0]])


def test_against_scipy(against_scipy):
    ref = stats.pareto(ALPHA, scale=SCALE)
    against_scipy(Pareto(SCALE, ALPHA), ref, X, ("log_prob", "prob", "cdf", "icdf", "entropy",
                                                  "mean", "variance"))
    below = Pareto(SCALE, ALPHA)
    assert numpy.all(below.log_prob(SCALE / 2).array == -numpy.inf)
    numpy.testing.assert_array_equal(below.cdf(SCALE / 2).array, 0.0)


def test_float32(keeps_float32):
    keeps_float32(Pareto(SCALE.astype(numpy.float32), ALPHA.astype(numpy.float32)), X,
                  ("log_prob", "cdf", "entropy", "mean", "variance"))


def test_sample_moments(sample_moments):
    ref = stats.pareto(ALPHA[2:], scale=SCALE[2:])
    s = sample_moments(Pareto(SCALE[2:], ALPHA[2:]), ref.mean(), ref.var(), n=100000)
    assert numpy.all(s >= SCALE[2:])


def test_grad_log_prob_and_sample(grad_check):
    grad_check(lambda s, a: Pareto(s, a).log_prob(X), (SCALE, ALPHA))
    grad_check(lambda s, a: Pareto(s, a).sample(4), (SCALE, ALPHA), seed=0)


def test_kl(kl_numeric):
    s2, a2 = numpy.array([0.2, 1.0, 3.0]), numpy.array([1.5, 1.0, 2.0])
    got = kl_divergence(Pareto(SCALE, ALPHA), Pareto(s2, a2)).array
    want = [kl_numeric(stats.pareto(a, scale=s).logpdf, stats.pareto(c, scale=r).logpdf, s,
                       numpy.inf) for s, a, r, c in zip(SCALE[:2], ALPHA[:2], s2, a2)]
    numpy.testing.assert_allclose(got[:2], want, rtol=1e-6)
    assert got[2] == numpy.inf  # p has mass below q's minimum
