"""SquashedDiagonalGaussianHead: SAC's tanh-squashed Gaussian, against closed forms."""
import kusari
import numpy as np
import pytest
from kusari.rl.policies import SquashedDiagonalGaussianHead
from scipy import stats


@pytest.fixture
def rng():
    return np.random.RandomState(0)


def test_log_prob_matches_a_numeric_change_of_variables(rng):
    mean = rng.randn(5, 2)
    log_scale = rng.uniform(-1, 0.5, size=(5, 2))
    y = np.tanh(rng.randn(5, 2))
    d = SquashedDiagonalGaussianHead()(np.concatenate([mean, log_scale], axis=1))
    u = np.arctanh(y)
    h = 1e-6  # |dy/du| by central differences, independent of the closed form
    dy_du = (np.tanh(u + h) - np.tanh(u - h)) / (2 * h)
    expected = (stats.norm(mean, np.exp(log_scale)).logpdf(u) - np.log(dy_du)).sum(axis=1)
    np.testing.assert_allclose(d.log_prob(y).array, expected, rtol=1e-6)


def test_log_prob_of_own_draw_stays_finite_where_tanh_saturates():
    # With scale exp(-20) every draw is the mean in float32, so the pre-tanh value is known.
    mean = np.array([12.0, -11.0, 0.5])
    x = np.concatenate([mean, [-20.0] * 3])[None].astype(np.float32)
    d = SquashedDiagonalGaussianHead()(x)
    a = d.sample()
    np.testing.assert_array_equal(a.array[0, :2], [1.0, -1.0])  # arctanh(a) would be infinite
    expected = (stats.norm(mean, np.exp(-20.0)).logpdf(mean)
                - np.log1p(-np.tanh(mean) ** 2)).sum()
    got = d.log_prob(a).array
    np.testing.assert_allclose(got, [expected], rtol=1e-5)
    np.testing.assert_array_equal(d.log_prob(a.array).array, got)
    assert np.isfinite(d.log_prob(np.ones((1, 3), np.float32)).array).all()


def test_log_scale_is_clipped_to_its_bounds():
    x = kusari.Variable(np.array([[0.0, 0.0, -30.0, 5.0], [0.0, 0.0, -1.0, 1.0]]))
    d = SquashedDiagonalGaussianHead()(x)
    np.testing.assert_array_equal(d.log_scale.array, [[-20.0, 2.0], [-1.0, 1.0]])
    kusari.functions.sum(d.log_prob(np.full((2, 2), 0.3))).backward()
    assert np.all(x.grad[0, 2:] == 0) and np.all(x.grad[1, 2:] != 0)


def test_rsample_is_reparameterized(rng):
    def rsample(x):
        np.random.seed(3)  # the same noise on every evaluation
        return SquashedDiagonalGaussianHead()(x).rsample()

    def sac_log_prob(x):
        np.random.seed(3)
        d = SquashedDiagonalGaussianHead()(x)
        return d.log_prob(d.rsample())

    x = np.concatenate([rng.randn(4, 3), rng.uniform(-1, 0.5, (4, 3))], axis=1)
    kusari.gradient_check.check_backward(rsample, x, rng.randn(4, 3))
    kusari.gradient_check.check_backward(sac_log_prob, x, rng.randn(4))


def test_sample_mode_shapes_and_dtypes(rng):
    x = rng.randn(4, 6).astype(np.float32)
    d = SquashedDiagonalGaussianHead()(kusari.Variable(x))
    a = d.sample()
    assert a.shape == (4, 3) and a.dtype == np.float32 and not a.requires_grad
    assert np.all(np.abs(a.array) <= 1)
    assert d.rsample().requires_grad
    assert d.sample(7).shape == (7, 4, 3)
    assert d.log_prob(a).shape == (4,) and d.log_prob(a).dtype == np.float32
    np.testing.assert_allclose(d.mode.array, np.tanh(x[:, :3]), rtol=1e-6)
    np.testing.assert_allclose(d.most_probable.array, np.tanh(x[:, :3]), rtol=1e-6)
    assert d.batch_shape == (4,) and d.event_shape == (3,)
    with pytest.raises(NotImplementedError):
        _ = d.entropy
    with pytest.raises(NotImplementedError):
        _ = d.mean


def test_odd_number_of_columns_is_refused():
    with pytest.raises(ValueError, match=r"SquashedDiagonalGaussianHead.*\(2, 3\)"):
        SquashedDiagonalGaussianHead()(np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match="log_scale_min"):
        SquashedDiagonalGaussianHead(log_scale_min=2.0, log_scale_max=-20.0)
