import numpy
from scipy import special

from kusari.distributions import OneHotCategorical, kl_divergence

P = numpy.array([[0.2, 0.3, 0.5], [0.7, 0.0, 0.3]])
X = numpy.eye(3)[numpy.array([[2, 1], [0, 0]])]


def test_log_prob_entropy_moments():
    d = OneHotCategorical(P)
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    with numpy.errstate(divide="ignore"):
        want = numpy.log(P[numpy.arange(2), numpy.array([[2, 1], [0, 0]])])
    numpy.testing.assert_allclose(d.log_prob(X).array, want)
    numpy.testing.assert_allclose(d.entropy.array, special.entr(P).sum(-1))
    numpy.testing.assert_allclose(d.variance.array, P * (1 - P))


def test_float32_and_samples(keeps_float32, sample_moments):
    keeps_float32(OneHotCategorical(P.astype(numpy.float32)), X, ("log_prob", "entropy", "mean"))
    s = sample_moments(OneHotCategorical(P), P, P * (1 - P))
    numpy.testing.assert_array_equal(s.sum(-1), 1.0)


def test_kl():
    q = numpy.array([[0.1, 0.1, 0.8], [0.5, 0.25, 0.25]])
    got = kl_divergence(OneHotCategorical(P), OneHotCategorical(q)).array
    numpy.testing.assert_allclose(got, special.rel_entr(P, q).sum(-1))
