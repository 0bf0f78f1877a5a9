import numpy
from scipy import stats

from kusari.distributions import Gumbel, kl_divergence

LOC = numpy.array([-1.0, 0.0, 2.0])
SCALE = numpy.array([0.5, 1.0, 3.0])
X = numpy.array([[0.3, -2.0, 2.5], [-1.5, 0.5, -4.0]])


def test_against_scipy(against_scipy):
    against_scipy(Gumbel(LOC, SCALE), stats.gumbel_r(LOC, SCALE), X,
                  ("log_prob", "prob", "cdf", "icdf", "entropy", "mean", "variance", "stddev"))


def test_float32(keeps_float32):
    keeps_float32(Gumbel(LOC.astype(numpy.float32), SCALE.astype(numpy.float32)), X)


def test_sample_moments(sample_moments):
    ref = stats.gumbel_r(LOC, SCALE)
    sample_moments(Gumbel(LOC, SCALE), ref.mean(), ref.var())


def test_grad_log_prob_and_sample(grad_check):
    grad_check(lambda m, s, x: Gumbel(m, s).log_prob(x), (LOC, SCALE, X))
    grad_check(lambda m, s: Gumbel(m, s).sample(4), (LOC, SCALE), seed=0)


def test_kl(kl_numeric):
    m2, s2 = numpy.array([0.5, 0.0, -1.0]), numpy.array([1.0, 0.4, 2.0])
    got = kl_divergence(Gumbel(LOC, SCALE), Gumbel(m2, s2)).array
    want = [kl_numeric(stats.gumbel_r(a, b).logpdf, stats.gumbel_r(c, e).logpdf, -40, 80)
            for a, b, c, e in zip(LOC, SCALE, m2, s2)]
    numpy.testing.assert_allclose(got, want, rtol=1e-6)
