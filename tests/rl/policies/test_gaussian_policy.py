"""Gaussian heads: densities and entropies against scipy, gradients, shapes and errors."""
import kusari
import numpy as np
import pytest
from kusari.rl.policies import (
    GaussianHeadWithDiagonalCovariance,
    GaussianHeadWithFixedCovariance,
    GaussianHeadWithStateIndependentCovariance,
)
from scipy import stats


def _softplus(x):
    return np.log1p(np.exp(x))


def _check_against_scipy(d, mean, std, action):
    ref = stats.norm(mean.astype(np.float64), std)
    np.testing.assert_allclose(d.log_prob(action).array, ref.logpdf(action).sum(axis=1),
                               rtol=1e-5)
    np.testing.assert_allclose(d.entropy.array, ref.entropy().sum(axis=1), rtol=1e-5)
    np.testing.assert_array_equal(d.mode.array, mean)
    np.testing.assert_array_equal(d.mean.array, mean)
    for v in (d.sample(), d.rsample(), d.log_prob(action), d.entropy):
        assert v.dtype == np.float32
    assert d.batch_shape == mean.shape[:1] and d.event_shape == mean.shape[1:]


@pytest.fixture
def rng():
    return np.random.RandomState(0)


@pytest.mark.parametrize("var_type, var_param_init, size", [
    ("spherical", 0.5, 1), ("diagonal", [0.5, -1.0, 2.0], 3)])
def test_state_independent_covariance(rng, var_type, var_param_init, size):
    head = GaussianHeadWithStateIndependentCovariance(3, var_type=var_type,
                                                      var_param_init=var_param_init)
    assert head.var_param.shape == (size,) and head.var_param.dtype == np.float32
    assert [n for n, _ in head.namedparams()] == ["/var_param"]
    mean = rng.randn(4, 3).astype(np.float32)
    action = rng.randn(4, 3).astype(np.float32)
    std = np.sqrt(_softplus(np.broadcast_to(np.asarray(var_param_init, np.float64), (3,))))
    _check_against_scipy(head(mean), mean, std, action)


def test_state_independent_variance_is_learned(rng):
    head = GaussianHeadWithStateIndependentCovariance(2, var_type="diagonal",
                                                      var_param_init=0.3)
    mean = rng.randn(3, 2).astype(np.float32)
    action = rng.randn(3, 2).astype(np.float32)
    kusari.gradient_check.check_backward(lambda m: head(m).log_prob(action), mean,
                                         np.ones(3, np.float32), params=(head.var_param,),
                                         eps=1e-2, atol=1e-3, rtol=1e-2)
    assert np.all(head.var_param.grad != 0)


def test_state_independent_refuses_bad_arguments():
    with pytest.raises(ValueError, match="var_type"):
        GaussianHeadWithStateIndependentCovariance(2, var_type="full")
    head = GaussianHeadWithStateIndependentCovariance(2)
    with pytest.raises(ValueError, match=r"GaussianHeadWithStateIndependentCovariance.*\(4, 3\)"):
        head(np.zeros((4, 3), np.float32))


def test_diagonal_covariance_splits_mean_and_variance(rng):
    x = rng.randn(4, 6).astype(np.float32)
    action = rng.randn(4, 3).astype(np.float32)
    d = GaussianHeadWithDiagonalCovariance()(x)
    _check_against_scipy(d, x[:, :3], np.sqrt(_softplus(x[:, 3:].astype(np.float64))), action)


def test_diagonal_covariance_refuses_odd_columns():
    with pytest.raises(ValueError, match=r"GaussianHeadWithDiagonalCovariance.*\(4, 5\)"):
        GaussianHeadWithDiagonalCovariance()(np.zeros((4, 5), np.float32))


def test_fixed_covariance(rng):
    mean = rng.randn(4, 2).astype(np.float32)
    action = rng.randn(4, 2).astype(np.float32)
    _check_against_scipy(GaussianHeadWithFixedCovariance(scale=0.3)(mean), mean, 0.3, action)


def test_sample_statistics_and_gradients(rng):
    np.random.seed(0)
    mean = np.array([[1.0, -2.0]], np.float32)
    draws = GaussianHeadWithFixedCovariance(scale=0.5)(mean).sample(20000).array
    np.testing.assert_allclose(draws.mean(axis=0)[0], mean[0], atol=0.02)
    np.testing.assert_allclose(draws.std(axis=0)[0], [0.5, 0.5], atol=0.02)

    def rsample(x):
        np.random.seed(1)  # the same noise on every evaluation
        return GaussianHeadWithDiagonalCovariance()(x).rsample()

    x = rng.randn(3, 4)
    kusari.gradient_check.check_backward(rsample, x, rng.randn(3, 2))
    assert not GaussianHeadWithDiagonalCovariance()(kusari.Variable(x)).sample().requires_grad
