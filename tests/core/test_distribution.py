import numpy
import pytest

import kusari
from kusari import distribution, distributions
from kusari.distributions import Normal


class _Shifted(Normal):
    """A subclass with no KL of its own: lookup must fall back to Normal's."""


class _Toy(distribution.Distribution):
    @property
    def batch_shape(self):
        return (2,)

    @property
    def event_shape(self):
        return (3,)

    def sample_n(self, n):
        return kusari.Variable(numpy.arange(n * 6, dtype=numpy.float32).reshape(n, 2, 3))


def test_sample_shape_forms():
    d = _Toy()
    assert d.sample().shape == (2, 3)
    assert d.sample(4).shape == (4, 2, 3)
    assert d.sample((2, 5)).shape == (2, 5, 2, 3)
    with pytest.raises(ValueError, match=r"_Toy.sample: sample_shape must hold non-negative"):
        d.sample((-1,))


def test_unimplemented_names_the_class():
    with pytest.raises(NotImplementedError, match="_Toy does not implement entropy"):
        _Toy().entropy
    with pytest.raises(NotImplementedError, match="_Toy does not implement log_prob"):
        _Toy().prob(numpy.zeros((2, 3)))


def test_kl_lookup_follows_mro_and_registration():
    p, q = _Shifted(0.0, 1.0), Normal(1.0, 2.0)
    # Closed form for N(0, 1) || N(1, 4): log 2 + (1 + 1) / 8 - 1/2.
    numpy.testing.assert_allclose(distributions.kl_divergence(p, q).array,
                                  numpy.log(2.0) + 0.25 - 0.5, rtol=1e-6)

    @distributions.register_kl(_Shifted, Normal)
    def _kl(a, b):
        return a.loc * 0.0 + 42.0
    try:
        assert float(distributions.kl_divergence(p, q).array) == 42.0
        assert float(distributions.kl_divergence(q, Normal(0.0, 1.0)).array) != 42.0
    finally:
        del distribution._KL_REGISTRY[_Shifted, Normal]


def test_kl_missing_pair_and_bad_registration():
    with pytest.raises(NotImplementedError, match=r"no KL registered for \(Normal, Gamma\)"):
        distributions.kl_divergence(Normal(0.0, 1.0), distributions.Gamma(1.0, 1.0))
    with pytest.raises(TypeError, match="register_kl: expected Distribution subclasses"):
        distributions.register_kl(Normal, int)


def test_cross_entropy_is_entropy_plus_kl():
    # H(N(0,1), N(0,4)) = E_p[-log q] = log(2 sqrt(2 pi)) + 1 / 8.
    got = distribution.cross_entropy(Normal(0.0, 1.0), Normal(0.0, 2.0)).array
    numpy.testing.assert_allclose(got, numpy.log(2 * numpy.sqrt(2 * numpy.pi)) + 0.125, rtol=1e-6)
