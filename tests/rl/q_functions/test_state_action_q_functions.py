"""State-action Q-functions: called with one (obs, action) tuple, values against their MLPs."""
import numpy as np
import pytest
from kusari.rl.q_functions import (
    FCBNLateActionSAQFunction,
    FCBNSAQFunction,
    FCLateActionSAQFunction,
    FCSAQFunction,
    SingleModelStateActionQFunction,
)


@pytest.fixture
def batch():
    rng = np.random.RandomState(0)
    return rng.randn(6, 3).astype(np.float32), rng.randn(6, 2).astype(np.float32)


@pytest.mark.parametrize("cls", [FCSAQFunction, FCBNSAQFunction, FCLateActionSAQFunction,
                                 FCBNLateActionSAQFunction])
def test_tuple_and_two_argument_calls_agree(cls, batch):
    q = cls(3, 2, n_hidden_channels=8, n_hidden_layers=2)
    y = q(batch)
    assert y.shape == (6, 1) and y.dtype == np.float32
    np.testing.assert_array_equal(q(*batch).array, y.array)
    with pytest.raises(TypeError, match=cls.__name__):
        q(batch[0])


def test_fc_sa_q_function_is_an_mlp_of_the_concatenation(batch):
    q = FCSAQFunction(3, 2, 8, 1)
    obs, act = batch
    x = np.concatenate([obs, act], axis=1)
    h = np.maximum(x @ q.hidden_layers[0].W.array.T + q.hidden_layers[0].b.array, 0)
    np.testing.assert_allclose(q((obs, act)).array,
                               h @ q.output.W.array.T + q.output.b.array, rtol=1e-5, atol=1e-6)
    assert q.hidden_layers[0].W.shape == (8, 5)


def test_late_action_joins_after_the_first_layer(batch):
    q = FCLateActionSAQFunction(3, 2, 8, 2)
    assert q.obs_mlp.output.W.shape == (8, 3)
    assert q.mlp.hidden_layers[0].W.shape == (8, 10)
    obs, act = batch
    h = np.maximum(obs @ q.obs_mlp.output.W.array.T + q.obs_mlp.output.b.array, 0)
    np.testing.assert_allclose(q((obs, act)).array,
                               q.mlp(np.concatenate([h, act], axis=1)).array, rtol=1e-5)
    with pytest.raises(ValueError, match="FCLateActionSAQFunction.*n_hidden_layers"):
        FCLateActionSAQFunction(3, 2, 8, 0)
    with pytest.raises(ValueError, match="FCBNLateActionSAQFunction.*n_hidden_layers"):
        FCBNLateActionSAQFunction(3, 2, 8, 0)


def test_single_model_state_action_q_function(batch):
    q = SingleModelStateActionQFunction(FCSAQFunction(3, 2, 4, 1))
    np.testing.assert_array_equal(q(batch).array, q.model(batch).array)
