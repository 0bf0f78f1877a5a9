"""Action values against NumPy: greedy actions, maxima, advantages and their gradients."""
import warnings

import kusari
import numpy as np
import pytest
from kusari.rl.action_value import (
    DiscreteActionValue,
    DistributionalDiscreteActionValue,
    QuadraticActionValue,
    QuantileDiscreteActionValue,
    SingleActionValue,
)


@pytest.fixture
def rng():
    return np.random.RandomState(0)


def test_discrete_action_value_matches_numpy(rng):
    q = rng.randn(5, 4).astype(np.float32)
    av = DiscreteActionValue(q)
    rows = np.arange(5)
    actions = np.array([0, 3, 1, 1, 2])
    other = np.array([2, 2, 0, 3, 1])
    np.testing.assert_array_equal(av.greedy_actions.array, q.argmax(axis=1))
    assert av.greedy_actions.dtype == np.int32 and not av.greedy_actions.requires_grad
    np.testing.assert_array_equal(av.max.array, q.max(axis=1))
    np.testing.assert_array_equal(av.evaluate_actions(actions).array, q[rows, actions])
    np.testing.assert_allclose(av.compute_advantage(actions).array,
                               q[rows, actions] - q.max(axis=1))
    np.testing.assert_allclose(av.compute_double_advantage(actions, other).array,
                               q[rows, actions] - q[rows, other])
    p = np.exp(2.0 * q) / np.exp(2.0 * q).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(av.compute_expectation(2.0).array, (p * q).sum(axis=1), rtol=1e-5)
    assert av.n_actions == 4 and av.max.dtype == np.float32
    assert av.params[0] is av.q_values
    np.testing.assert_array_equal(av[1:3].q_values.array, q[1:3])
    assert "greedy_actions" in repr(av)


def test_discrete_max_gradient_is_one_hot_at_the_greedy_action(rng):
    q = kusari.Variable(rng.randn(3, 4).astype(np.float32))
    kusari.functions.sum(DiscreteActionValue(q).max).backward()
    expected = np.zeros((3, 4), np.float32)
    expected[np.arange(3), q.array.argmax(axis=1)] = 1
    np.testing.assert_array_equal(q.grad, expected)


def test_discrete_action_value_refuses_bad_inputs(rng):
    with pytest.raises(ValueError, match=r"DiscreteActionValue.*\(4,\)"):
        DiscreteActionValue(np.zeros(4, np.float32))
    av = DiscreteActionValue(rng.randn(3, 4).astype(np.float32))
    with pytest.raises(TypeError, match="evaluate_actions.*float"):
        av.evaluate_actions(np.zeros(3, np.float32))
    with pytest.raises(ValueError, match=r"evaluate_actions.*\(3,\).*\(2,\)"):
        av.evaluate_actions(np.zeros(2, np.int32))


def test_distributional_action_value(rng):
    logits = rng.randn(3, 4, 5)
    q_dist = (np.exp(logits) / np.exp(logits).sum(axis=2, keepdims=True)).astype(np.float32)
    z = np.linspace(-1, 1, 5, dtype=np.float32)
    av = DistributionalDiscreteActionValue(q_dist, z)
    q = (q_dist * z).sum(axis=2)
    greedy = q.argmax(axis=1)
    actions = np.array([1, 0, 3])
    np.testing.assert_allclose(av.q_values.array, q, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(av.greedy_actions.array, greedy)
    np.testing.assert_allclose(av.max.array, q[np.arange(3), greedy], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(av.max_as_distribution.array, q_dist[np.arange(3), greedy])
    np.testing.assert_array_equal(av.evaluate_actions_as_distribution(actions).array,
                                  q_dist[np.arange(3), actions])
    np.testing.assert_array_equal(av[:2].q_dist.array, q_dist[:2])
    assert av.params[0] is av.q_dist
    with pytest.raises(ValueError, match="z_values"):
        DistributionalDiscreteActionValue(q_dist, z[:4])


def test_distributional_gradient_reaches_only_the_chosen_action(rng):
    q_dist = kusari.Variable(rng.rand(2, 3, 4))
    z = np.linspace(0, 1, 4)
    chosen = DistributionalDiscreteActionValue(q_dist, z).evaluate_actions_as_distribution(
        np.array([2, 0]))
    kusari.functions.sum(chosen).backward()
    expected = np.zeros((2, 3, 4))
    expected[0, 2] = expected[1, 0] = 1
    np.testing.assert_array_equal(q_dist.grad, expected)


def test_quantile_action_value(rng):
    quantiles = rng.randn(2, 7, 3).astype(np.float32)
    av = QuantileDiscreteActionValue(quantiles)
    actions = np.array([2, 0])
    np.testing.assert_allclose(av.q_values.array, quantiles.mean(axis=1), rtol=1e-6)
    np.testing.assert_array_equal(av.evaluate_actions_as_quantiles(actions).array,
                                  quantiles[np.arange(2), :, actions])
    np.testing.assert_array_equal(av.greedy_actions.array, quantiles.mean(axis=1).argmax(axis=1))
    assert av[1:].quantiles.shape == (1, 7, 3)


def _spd(rng, b, n):
    m = rng.randn(b, n, n)
    return (m @ m.transpose(0, 2, 1) + n * np.eye(n)).astype(np.float32)


def test_quadratic_action_value(rng):
    mu = rng.randn(4, 2).astype(np.float32)
    mat = _spd(rng, 4, 2)
    v = rng.randn(4, 1).astype(np.float32)
    a = rng.randn(4, 2).astype(np.float32)
    av = QuadraticActionValue(mu, mat, v)
    d = a - mu
    expected = v[:, 0] - 0.5 * np.einsum("bi,bij,bj->b", d, mat, d)
    np.testing.assert_allclose(av.evaluate_actions(a).array, expected, rtol=1e-5)
    np.testing.assert_array_equal(av.greedy_actions.array, mu)
    np.testing.assert_array_equal(av.max.array, v[:, 0])
    np.testing.assert_allclose(av.compute_advantage(a).array, expected - v[:, 0], rtol=1e-4,
                               atol=1e-6)


def test_quadratic_action_value_clips_greedy_actions(rng):
    mu = np.array([[2.0, -3.0], [0.1, 0.2]], np.float32)
    mat = _spd(rng, 2, 2)
    v = np.zeros(2, np.float32)
    av = QuadraticActionValue(mu, mat, v, min_action=-1.0, max_action=np.array([1.0, 0.15]))
    clipped = np.array([[1.0, -1.0], [0.1, 0.15]], np.float32)
    np.testing.assert_array_equal(av.greedy_actions.array, clipped)
    d = clipped - mu
    np.testing.assert_allclose(av.max.array, -0.5 * np.einsum("bi,bij,bj->b", d, mat, d),
                               rtol=1e-5)
    with pytest.raises(ValueError, match=r"QuadraticActionValue.*mat.shape=\(2, 1, 2\)"):
        QuadraticActionValue(mu, mat[:, :1], v)


def test_single_action_value():
    evaluator = lambda a: 2 * a
    av = SingleActionValue(evaluator, maximizer=lambda: np.array([3.0]))
    np.testing.assert_array_equal(av.max, [6.0])
    np.testing.assert_array_equal(av.evaluate_actions(np.array([1.0])), [2.0])
    np.testing.assert_array_equal(av.compute_advantage(np.array([1.0])), [-4.0])
    np.testing.assert_array_equal(
        av.compute_double_advantage(np.array([1.0]), np.array([0.5])), [1.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert av.params == ()
    assert caught
    with pytest.raises(NotImplementedError):
        _ = av[0]
    with pytest.raises(NotImplementedError, match="maximizer"):
        _ = SingleActionValue(evaluator).greedy_actions
