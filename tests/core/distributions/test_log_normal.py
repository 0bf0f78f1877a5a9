import numpy
import pytest
from scipy import stats

import kusari
from kusari.distributions import LogNormal, kl_divergence

MU = numpy.array([-0.5, 0.0, 0.7])
SIGMA = numpy.array([0.3, 1.0, 0.6])
X = numpy.array([[0.2, 1.5, 3.0], [1.0, 0.05, 0.9]])


def _ref(mu, sigma):
    return stats.lognorm(s=sigma, scale=numpy.exp(mu))


def test_against_scipy(against_scipy):
    against_scipy(LogNormal(MU, SIGMA), _ref(MU, SIGMA), X,
                  ("log_prob", "prob", "cdf", "icdf", "entropy", "mean", "variance", "stddev"))


def test_mode():
    # The density's maximum: compare with a fine grid search of scipy's pdf.
    grid = numpy.linspace(1e-3, 3, 300001)[:, None]
    want = grid[_ref(MU, SIGMA).pdf(grid).argmax(0), 0]
    numpy.testing.assert_allclose(LogNormal(MU, SIGMA).mode.array, want, atol=2e-5)


def test_float32(keeps_float32):
    keeps_float32(LogNormal(MU.astype(numpy.float32), SIGMA.astype(numpy.float32)), X)


def test_sample_moments(sample_moments):
    ref = _ref(MU, SIGMA)
    sample_moments(LogNormal(MU, SIGMA), ref.mean(), ref.var(), n=50000)


def test_grad_log_prob_and_sample(grad_check):
    grad_check(lambda m, s, x: LogNormal(m, s).log_prob(x), (MU, SIGMA, X))
    grad_check(lambda m, s: LogNormal(m, s).sample(3), (MU, SIGMA), seed=0)


def test_sample_carries_gradient():
    mu = kusari.Variable(MU.copy())
    s = LogNormal(mu, SIGMA).sample(5)
    kusari.functions.sum(s).backward()
    numpy.testing.assert_allclose(mu.grad, s.array.sum(0))  # d exp(mu + sigma eps) / d mu


def test_kl(kl_numeric):
    m2, s2 = numpy.array([0.2, -0.4, 0.7]), numpy.array([0.5, 0.8, 1.2])
    got = kl_divergence(LogNormal(MU, SIGMA), LogNormal(m2, s2)).array
    want = [kl_numeric(_ref(a, b).logpdf, _ref(c, e).logpdf, 0, numpy.inf)
            for a, b, c, e in zip(MU, SIGMA, m2, s2)]
    numpy.testing.assert_allclose(got, want, rtol=1e-5)


def test_errors():
    with pytest.raises(ValueError, match=r"LogNormal.*mu.shape=\(3,\).*sigma.shape=\(2,\)"):
        LogNormal(MU, SIGMA[:2])
