"""Dueling networks: Q = V + A - mean(A), and the distributional variant's atoms."""
import kusari.functions as F
import numpy as np
import pytest
from kusari.rl.q_functions import DistributionalDuelingDQN, DuelingDQN


@pytest.fixture
def frames():
    return np.random.RandomState(0).rand(2, 4, 84, 84).astype(np.float32)


def _features(net, x):
    h = x
    for layer in net.conv_layers:
        h = F.relu(layer(h))
    return h.array.reshape(len(x), -1)


def test_dueling_dqn_combines_value_and_mean_free_advantage(frames):
    net = DuelingDQN(5)
    av = net(frames)
    assert av.q_values.shape == (2, 5) and av.q_values.dtype == np.float32
    h = _features(net, frames)
    a = net.a_stream(h).array
    v = net.v_stream(h).array
    np.testing.assert_allclose(av.q_values.array, v + a - a.mean(axis=1, keepdims=True),
                               rtol=1e-5, atol=1e-6)
    for conv in net.conv_layers:
        np.testing.assert_array_equal(conv.b.array, np.float32(0.1))
    with pytest.raises(ValueError, match=r"DuelingDQN.*\(2, 3, 84, 84\)"):
        net(frames[:, :3])


def test_distributional_dueling_dqn(frames):
    net = DistributionalDuelingDQN(3, 11, -5.0, 5.0)
    av = net(frames)
    assert av.q_dist.shape == (2, 3, 11)
    np.testing.assert_allclose(av.q_dist.array.sum(axis=2), 1, rtol=1e-5)
    np.testing.assert_allclose(net.z_values, np.linspace(-5, 5, 11))
    h = np.maximum(net.main_stream(_features(net, frames)).array, 0)
    ya = net.a_stream(h[:, :512]).array.reshape(2, 3, 11)
    ys = net.v_stream(h[:, 512:]).array.reshape(2, 1, 11)
    logits = ys + ya - ya.mean(axis=1, keepdims=True)
    p = np.exp(logits) / np.exp(logits).sum(axis=2, keepdims=True)
    np.testing.assert_allclose(av.q_dist.array, p, rtol=1e-4, atol=1e-6)
