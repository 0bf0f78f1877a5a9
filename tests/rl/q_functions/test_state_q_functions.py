"""State-input Q-functions: the ActionValues they return, against NumPy."""
import gymnasium
import kusari
import numpy as np
import pytest
from kusari.rl.action_value import (
    DiscreteActionValue,
    DistributionalDiscreteActionValue,
    QuadraticActionValue,
    QuantileDiscreteActionValue,
)
from kusari.rl.nn import MLP
from kusari.rl.q_functions import (
    DiscreteActionValueHead,
    DistributionalFCStateQFunctionWithDiscreteAction,
    FCQuadraticStateQFunction,
    FCStateQFunctionWithDiscreteAction,
    QuantileFCStateQFunctionWithDiscreteAction,
)
from kusari.rl.q_functions.state_q_functions import lower_triangular_matrix


@pytest.fixture
def obs():
    return np.random.RandomState(0).randn(5, 3).astype(np.float32)


def test_fc_discrete_q_function(obs):
    q = FCStateQFunctionWithDiscreteAction(3, 4, n_hidden_channels=8, n_hidden_layers=2)
    assert {n for n, _ in q.namedparams()} == {
        "/model/hidden_layers/0/W", "/model/hidden_layers/0/b",
        "/model/hidden_layers/1/W", "/model/hidden_layers/1/b",
        "/model/output/W", "/model/output/b"}
    av = q(obs)
    assert isinstance(av, DiscreteActionValue)
    assert av.q_values.shape == (5, 4) and av.q_values.dtype == np.float32
    np.testing.assert_array_equal(av.q_values.array, q.model(obs).array)


def test_discrete_action_value_head_in_a_sequential(obs):
    net = kusari.Sequential(MLP(3, 4, [6]), DiscreteActionValueHead())
    av = net(obs)
    assert isinstance(av, DiscreteActionValue)
    np.testing.assert_array_equal(av.q_values.array, net[0](obs).array)


def test_distributional_fc_q_function(obs):
    q = DistributionalFCStateQFunctionWithDiscreteAction(3, 4, 7, -2.0, 3.0, 8, 1)
    av = q(obs)
    assert isinstance(av, DistributionalDiscreteActionValue)
    np.testing.assert_allclose(q.z_values, np.linspace(-2, 3, 7))
    assert av.q_dist.shape == (5, 4, 7)
    np.testing.assert_allclose(av.q_dist.array.sum(axis=2), 1, rtol=1e-5)
    logits = q.model[0](obs).array.reshape(5, 4, 7)
    p = np.exp(logits) / np.exp(logits).sum(axis=2, keepdims=True)
    np.testing.assert_allclose(av.q_dist.array, p, rtol=1e-5)
    with pytest.raises(ValueError, match="n_atoms"):
        DistributionalFCStateQFunctionWithDiscreteAction(3, 4, 1, -2.0, 3.0, 8, 1)


def test_quantile_fc_q_function(obs):
    q = QuantileFCStateQFunctionWithDiscreteAction(3, 4, 6, 8, 1)
    av = q(obs)
    assert isinstance(av, QuantileDiscreteActionValue)
    assert av.quantiles.shape == (5, 6, 4)
    # the MLP's outputs are read quantile-major: (quantile, action)
    np.testing.assert_array_equal(av.quantiles.array, q.model[0](obs).array.reshape(5, 6, 4))
    np.testing.assert_allclose(av.q_values.array, av.quantiles.array.mean(axis=1), rtol=1e-6)
    with pytest.raises(ValueError, match="QuantileFCStateQFunctionWithDiscreteAction: n_quantiles must be >= 1, got 0"):
        QuantileFCStateQFunctionWithDiscreteAction(3, 4, 0, 8, 1)


def test_lower_triangular_matrix_matches_numpy():
    rng = np.random.RandomState(0)
    diag, non_diag = rng.randn(2, 3), rng.randn(2, 3)
    expected = np.zeros((2, 3, 3))
    expected[:, [0, 1, 2], [0, 1, 2]] = diag
    expected[:, [1, 2, 2], [0, 0, 1]] = non_diag
    np.testing.assert_array_equal(lower_triangular_matrix(
        kusari.Variable(diag), kusari.Variable(non_diag)).array, expected)
    kusari.gradient_check.check_backward(lower_triangular_matrix, (diag, non_diag),
                                         rng.randn(2, 3, 3))


@pytest.mark.parametrize("n_dim_action", [1, 3])
def test_fc_quadratic_q_function(obs, n_dim_action):
    space = gymnasium.spaces.Box(low=-0.5, high=1.0, shape=(n_dim_action,), dtype=np.float32)
    q = FCQuadraticStateQFunction(3, n_dim_action, 8, 2, space)
    av = q(obs)
    assert isinstance(av, QuadraticActionValue)
    mat = av.mat.array
    assert mat.shape == (5, n_dim_action, n_dim_action)
    np.testing.assert_allclose(mat, mat.transpose(0, 2, 1), rtol=1e-6)
    assert (np.linalg.eigvalsh(mat.astype(np.float64)) > 0).all()
    assert ((av.greedy_actions.array >= -0.5) & (av.greedy_actions.array <= 1.0)).all()
    a = np.random.RandomState(1).uniform(-0.5, 1.0, (5, n_dim_action)).astype(np.float32)
    d = a - av.mu.array
    expected = av.v.array[:, 0] - 0.5 * np.einsum("bi,bij,bj->b", d, mat, d)
    np.testing.assert_allclose(av.evaluate_actions(a).array, expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="n_hidden_layers"):
        FCQuadraticStateQFunction(3, n_dim_action, 8, 0, space)
