import numpy
import pytest
from scipy import stats

import kusari
from kusari.distributions import MultivariateNormal, kl_divergence

RNG = numpy.random.default_rng(0)
LOC = RNG.standard_normal((2, 3))
TRIL = numpy.tril(RNG.standard_normal((2, 3, 3)) * 0.5) + numpy.eye(3) * 1.5
X = RNG.standard_normal((4, 2, 3))


def _refs(loc, tril):
    return [stats.multivariate_normal(m, t @ t.T) for m, t in zip(loc, tril)]


def test_against_scipy():
    d = MultivariateNormal(LOC, TRIL)
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    refs = _refs(LOC, TRIL)
    want = numpy.stack([r.logpdf(X[:, i]) for i, r in enumerate(refs)], axis=1)
    numpy.testing.assert_allclose(d.log_prob(X).array, want, rtol=1e-10)
    numpy.testing.assert_allclose(d.entropy.array, [r.entropy() for r in refs], rtol=1e-10)
    cov = numpy.stack([r.cov for r in refs])
    numpy.testing.assert_allclose(d.covariance.array, cov, rtol=1e-12)
    numpy.testing.assert_allclose(d.variance.array, numpy.diagonal(cov, 0, -2, -1), rtol=1e-12)


def test_upper_triangle_is_ignored():
    polluted = TRIL + numpy.triu(numpy.ones((3, 3)), 1)
    a, b = MultivariateNormal(LOC, TRIL), MultivariateNormal(LOC, polluted)
    numpy.testing.assert_allclose(a.log_prob(X).array, b.log_prob(X).array, rtol=1e-12)


def test_batch_broadcast():
    d = MultivariateNormal(LOC, TRIL[0])
    assert d.batch_shape == (2,)
    assert d.sample(5).shape == (5, 2, 3)


def test_float32(keeps_float32):
    d = MultivariateNormal(LOC.astype(numpy.float32), TRIL.astype(numpy.float32))
    keeps_float32(d, X, ("log_prob", "entropy", "mean", "variance", "covariance"))


def test_sample_moments():
    numpy.random.seed(0)
    n = 20000
    s = MultivariateNormal(LOC, TRIL).sample(n).array
    cov = numpy.einsum("bij,bkj->bik", TRIL, TRIL)
    # Mean within 5 standard errors; covariance within 5 (Gaussian) standard errors.
    se = numpy.sqrt(numpy.diagonal(cov, 0, -2, -1) / n)
    numpy.testing.assert_array_less(numpy.abs(s.mean(0) - LOC), 5 * se)
    emp = numpy.einsum("nbi,nbj->bij", s - LOC, s - LOC) / n
    var = numpy.diagonal(cov, 0, -2, -1)
    se_cov = numpy.sqrt((cov ** 2 + var[:, :, None] * var[:, None, :]) / n)
    numpy.testing.assert_array_less(numpy.abs(emp - cov), 5 * se_cov)


def test_grad_log_prob_and_sample(grad_check):
    grad_check(lambda m, t, x: MultivariateNormal(m, t).log_prob(x), (LOC, TRIL, X))
    grad_check(lambda m, t: MultivariateNormal(m, t).sample(3), (LOC, TRIL), seed=0)


def test_sample_carries_gradient():
    loc = kusari.Variable(LOC.copy())
    s = MultivariateNormal(loc, TRIL).sample(4)
    kusari.functions.sum(s).backward()
    numpy.testing.assert_allclose(loc.grad, numpy.full(LOC.shape, 4.0))


def test_kl():
    loc2 = RNG.standard_normal((2, 3))
    tril2 = numpy.tril(RNG.standard_normal((2, 3, 3)) * 0.3) + numpy.eye(3)
    got = kl_divergence(MultivariateNormal(LOC, TRIL), MultivariateNormal(loc2, tril2)).array
    # Monte-Carlo estimate E_p[log p - log q] with scipy densities (fixed seed).
    want, se = [], []
    for p, q in zip(_refs(LOC, TRIL), _refs(loc2, tril2)):
        x = p.rvs(200000, random_state=1)
        r = p.logpdf(x) - q.logpdf(x)
        want.append(r.mean())
        se.append(r.std() / numpy.sqrt(len(r)))
    numpy.testing.assert_array_less(numpy.abs(got - want), 5 * numpy.array(se))


def test_errors():
    with pytest.raises(ValueError, match=r"MultivariateNormal.*loc.shape=\(2, 3\).*\(2, 4, 4\)"):
        MultivariateNormal(LOC, numpy.ones((2, 4, 4)))
    with pytest.raises(ValueError, match=r"MultivariateNormal: batch shapes do not broadcast"):
        MultivariateNormal(LOC, numpy.ones((3, 3, 3)))
    with pytest.raises(ValueError, match=r"x.shape=\(4, 2\) does not end with event_shape=\(3,\)"):
        MultivariateNormal(LOC, TRIL).log_prob(numpy.zeros((4, 2)))
