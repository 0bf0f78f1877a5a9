import numpy
import pytest
from scipy import stats

from kusari.distributions import Independent, Normal, kl_divergence

LOC = numpy.arange(6.0).reshape(2, 3) / 3
SCALE = numpy.linspace(0.5, 2.0, 6).reshape(2, 3)
X = numpy.linspace(-1, 1, 12).reshape(2, 2, 3)


def test_shapes_and_reductions():
    d = Independent(Normal(LOC, SCALE))
    assert d.reinterpreted_batch_ndims == 1
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    ref = stats.norm(LOC, SCALE)
    numpy.testing.assert_allclose(d.log_prob(X).array, ref.logpdf(X).sum(-1))
    numpy.testing.assert_allclose(d.prob(X).array, ref.pdf(X).prod(-1))
    numpy.testing.assert_allclose(d.cdf(X).array, ref.cdf(X).prod(-1))
    numpy.testing.assert_allclose(d.entropy.array, ref.entropy().sum(-1))
    numpy.testing.assert_allclose(d.variance.array, SCALE ** 2)
    assert d.sample((4,)).shape == (4, 2, 3)
    full = Independent(Normal(LOC, SCALE), 2)
    assert full.batch_shape == () and full.event_shape == (2, 3)
    numpy.testing.assert_allclose(full.log_prob(X).array, ref.logpdf(X).sum((-2, -1)))


def test_kl():
    p = Independent(Normal(LOC, SCALE))
    q = Independent(Normal(LOC[::-1], SCALE[::-1]))
    want = kl_divergence(Normal(LOC, SCALE), Normal(LOC[::-1], SCALE[::-1])).array.sum(-1)
    numpy.testing.assert_allclose(kl_divergence(p, q).array, want)


def test_errors():
    with pytest.raises(ValueError, match=r"Independent: reinterpreted_batch_ndims=3 must be in"):
        Independent(Normal(LOC, SCALE), 3)
    with pytest.raises(ValueError, match="Independent event shapes differ"):
        kl_divergence(Independent(Normal(LOC, SCALE), 1), Independent(Normal(LOC, SCALE), 2))
