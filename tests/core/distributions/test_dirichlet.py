import numpy
import pytest
from scipy import special, stats

from kusari.distributions import Dirichlet, kl_divergence

ALPHA = numpy.array([[0.5, 1.0, 2.0], [3.0, 4.0, 0.8]])
X = numpy.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])


def test_against_scipy():
    d = Dirichlet(ALPHA)
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    refs = [stats.dirichlet(a) for a in ALPHA]
    numpy.testing.assert_allclose(d.log_prob(X).array, [r.logpdf(x) for r, x in zip(refs, X)],
                                  rtol=1e-10)
    numpy.testing.assert_allclose(d.entropy.array, [r.entropy() for r in refs], rtol=1e-10)
    numpy.testing.assert_allclose(d.mean.array, [r.mean() for r in refs], rtol=1e-12)
    numpy.testing.assert_allclose(d.variance.array, [r.var() for r in refs], rtol=1e-12)


def test_float32(keeps_float32):
    keeps_float32(Dirichlet(ALPHA.astype(numpy.float32)), X)


def test_sample_moments(sample_moments):
    refs = [stats.dirichlet(a) for a in ALPHA]
    s = sample_moments(Dirichlet(ALPHA), numpy.stack([r.mean() for r in refs]),
                       numpy.stack([r.var() for r in refs]))
    numpy.testing.assert_allclose(s.sum(-1), 1.0, rtol=1e-12)


def test_grad_log_prob(grad_check):
    grad_check(lambda a, x: Dirichlet(a).log_prob(x), (ALPHA, X), no_grads=[False, True])
    grad_check(lambda a: Dirichlet(a).entropy, (ALPHA,))


def test_kl():
    beta = numpy.array([[1.0, 1.0, 1.0], [2.0, 0.5, 1.5]])
    got = kl_divergence(Dirichlet(ALPHA), Dirichlet(beta)).array
    # Monte-Carlo estimate with scipy's sampler and densities.
    for i in range(2):
        x = stats.dirichlet(ALPHA[i]).rvs(200000, random_state=2)
        x = numpy.clip(x, 1e-300, None)
        x /= x.sum(-1, keepdims=True)
        r = (special.xlogy(ALPHA[i] - beta[i], x).sum(-1)
             - special.gammaln(ALPHA[i]).sum() + special.gammaln(ALPHA[i].sum())
             + special.gammaln(beta[i]).sum() - special.gammaln(beta[i].sum()))
        assert abs(got[i] - r.mean()) < 5 * r.std() / numpy.sqrt(len(r))


def test_errors():
    with pytest.raises(ValueError, match=r"Dirichlet: alpha must have at least 1 dimension"):
        Dirichlet(numpy.float64(1.0))
