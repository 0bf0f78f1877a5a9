import numpy
import pytest
from scipy import stats

import kusari
from kusari.distributions import Normal, kl_divergence

LOC = numpy.array([-1.0, 0.5, 2.0])
SCALE = numpy.array([[0.5], [2.0]])  # broadcasts with LOC to batch_shape (2, 3)
X = numpy.array([[0.3, -1.2, 2.5], [4.0, 0.0, -3.0]])
ALL = ("log_prob", "prob", "cdf", "log_cdf", "survival_function", "log_survival_function",
       "icdf", "entropy", "mean", "variance", "stddev")


def test_against_scipy(against_scipy):
    d = Normal(LOC, SCALE)
    assert d.batch_shape == (2, 3) and d.event_shape == ()
    against_scipy(d, stats.norm(LOC, SCALE), X, ALL)


def test_log_scale_parameterization_matches_scale():
    a, b = Normal(LOC, SCALE), Normal(LOC, log_scale=numpy.log(SCALE))
    numpy.testing.assert_allclose(a.log_prob(X).array, b.log_prob(X).array, rtol=1e-12)
    numpy.testing.assert_allclose(b.scale.array, numpy.broadcast_to(SCALE, (2, 3)))


def test_float32(keeps_float32):
    d = Normal(LOC.astype(numpy.float32), 1.0)
    keeps_float32(d, X.astype(numpy.float64), ALL)


def test_sample_moments(sample_moments):
    d = Normal(LOC, SCALE)
    sample_moments(d, numpy.broadcast_to(LOC, (2, 3)), numpy.broadcast_to(SCALE ** 2, (2, 3)))
    assert d.sample((4, 5)).shape == (4, 5, 2, 3)


def test_sample_is_reparameterized():
    loc = kusari.Variable(LOC.copy())
    scale = kusari.Variable(numpy.array([0.5, 1.0, 2.0]))
    numpy.random.seed(3)
    s = Normal(loc, scale).sample(7)
    s.grad = numpy.ones(s.shape)
    s.backward()
    eps = (s.array - LOC) / scale.array
    numpy.testing.assert_allclose(loc.grad, numpy.full(3, 7.0))
    numpy.testing.assert_allclose(scale.grad, eps.sum(0))


def test_grad_log_prob_and_sample(grad_check):
    grad_check(lambda l, s, x: Normal(l, s).log_prob(x), (LOC, [0.5, 1.0, 2.0], X))
    grad_check(lambda l, s: Normal(l, log_scale=s).sample(4), (LOC, [0.1, -0.3, 0.2]), seed=0)


def test_kl(kl_numeric):
    s1, m2, s2 = numpy.array([0.5, 1.0, 2.0]), numpy.array([0.0, 1.0, -1.0]), numpy.array(
        [1.0, 0.3, 2.5])
    got = kl_divergence(Normal(LOC, s1), Normal(m2, s2)).array
    want = [kl_numeric(stats.norm(a, b).logpdf, stats.norm(c, e).logpdf, -30, 30)
            for a, b, c, e in zip(LOC, s1, m2, s2)]
    numpy.testing.assert_allclose(got, want, rtol=1e-6)


def test_errors():
    with pytest.raises(ValueError, match=r"Normal.*loc.shape=\(3,\).*scale.shape=\(4,\)"):
        Normal(numpy.zeros(3), numpy.ones(4))
    with pytest.raises(TypeError, match=r"Normal.*float32.*float64"):
        Normal(numpy.zeros(3, numpy.float32), numpy.ones(3))
    with pytest.raises(ValueError, match="exactly one"):
        Normal(0.0, 1.0, log_scale=0.0)
    with pytest.raises(TypeError, match="Normal: loc must be a float"):
        Normal(numpy.zeros(3, numpy.int64), 1.0)
