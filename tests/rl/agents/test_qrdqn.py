"""kusari.rl.agents.qrdqn: one update against NumPy, a known MDP learnt, bad input."""

import kusari
import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.agents.qrdqn import QRDQN
from kusari.rl.replay_buffers import PrioritizedReplayBuffer, ReplayBuffer
from rl_discrete_chain import Q_STAR, train_on_chain
from rl_discrete_chain import UPDATE_A, UPDATE_S, UPDATE_S_NEXT, UPDATE_WEIGHTS, three_experience_update, update_returns

N_QUANTILES, N_ACTIONS, OBS = 4, 2, 3
TAUS = (2 * numpy.arange(N_QUANTILES) + 1) / (2 * N_QUANTILES)


def linear_qr(w, b):
    model = kusari.Sequential(L.Linear(OBS, N_QUANTILES * N_ACTIONS, initialW=w.copy(), initial_bias=b.copy()),
                              lambda h: F.reshape(h, (-1, N_QUANTILES, N_ACTIONS)))
    return q_functions.QuantileSingleModelStateQFunctionWithDiscreteAction(model)


def transition(s, a, r, s2, terminal=False):
    return dict(state=numpy.float32(s), action=a, reward=r, next_state=numpy.float32(s2),
                next_action=None, is_state_terminal=terminal)


@pytest.mark.parametrize("batch_accumulator", ["mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
def test_update_matches_numpy(batch_accumulator, weighted):
    rng = numpy.random.RandomState(2)
    w0 = rng.normal(0, 1, (N_QUANTILES * N_ACTIONS, OBS)).astype(numpy.float32)
    b0 = rng.normal(0, 0.1, N_QUANTILES * N_ACTIONS).astype(numpy.float32)
    w_target = rng.normal(0, 1, w0.shape).astype(numpy.float32)
    gamma, lr = 0.9, 0.1
    q = linear_qr(w0, b0)
    agent = QRDQN(q, optimizers.SGD(lr=lr).setup(q), PrioritizedReplayBuffer(100) if weighted else ReplayBuffer(100),
                  gamma, explorers.Greedy(), replay_start_size=3, minibatch_size=3,
                  batch_accumulator=batch_accumulator)
    agent.target_model.model[0].W.array[...] = w_target
    weights = UPDATE_WEIGHTS
    errors, sent_to_buffer = three_experience_update(agent, weighted)
    s, a, s_next = UPDATE_S, UPDATE_A, UPDATE_S_NEXT
    rewards, keep = update_returns(gamma)
    z = (s @ w0.T + b0).reshape(3, N_QUANTILES, N_ACTIONS)
    z_next = (s_next @ w_target.T + b0).reshape(3, N_QUANTILES, N_ACTIONS)
    greedy = z_next.mean(axis=1).argmax(axis=1)
    t = rewards[:, None] + keep[:, None] * z_next[numpy.arange(3), :, greedy]   # (3, N')
    y = z[numpy.arange(3), :, a]                                               # (3, N)
    d = y[:, :, None] - t[:, None, :]
    weight = numpy.abs(TAUS[None, :, None] - (d > 0))
    per_example = (weight * numpy.where(numpy.abs(d) <= 1, 0.5 * d ** 2, numpy.abs(d) - 0.5)).mean(axis=2).sum(axis=1)
    wt = weights if weighted else numpy.ones(3)
    scale = 1 / 3 if batch_accumulator == "mean" else 1
    g_y = (weight * numpy.clip(d, -1, 1)).mean(axis=2) * (wt * scale)[:, None]   # d loss / d y, (3, N)
    g_out = numpy.zeros((3, N_QUANTILES, N_ACTIONS))
    g_out[numpy.arange(3), :, a] = g_y
    g_out = g_out.reshape(3, -1)
    linear = agent.model.model[0]
    stats = dict(agent.get_statistics())
    numpy.testing.assert_allclose(stats["average_loss"], (per_example * wt).sum() * scale, rtol=1e-5)
    numpy.testing.assert_allclose(stats["average_q"], y.mean(), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(errors, per_example, rtol=1e-5)
    numpy.testing.assert_allclose(linear.W.array, w0 - lr * g_out.T @ s, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(linear.b.array, b0 - lr * g_out.sum(axis=0), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_array_equal(agent.target_model.model[0].W.array, w_target)
    if weighted:
        numpy.testing.assert_allclose(sent_to_buffer, [per_example], rtol=1e-5)


def test_q_function_must_return_quantiles():
    q = q_functions.FCStateQFunctionWithDiscreteAction(OBS, N_ACTIONS, 4, 1)
    agent = QRDQN(q, optimizers.SGD().setup(q), ReplayBuffer(10), 0.9, explorers.Greedy(),
                  replay_start_size=1, minibatch_size=1)
    with pytest.raises(TypeError, match="QRDQN: the q_function must return a QuantileDiscreteActionValue, "
                                        "got DiscreteActionValue"):
        agent.update([[transition([1, 0, 0], 0, 1.0, [0, 1, 0])]])


def test_observation_of_another_shape_is_refused_at_act():
    q = q_functions.QuantileFCStateQFunctionWithDiscreteAction(OBS, N_ACTIONS, N_QUANTILES, 4, 1)
    agent = QRDQN(q, optimizers.SGD().setup(q), ReplayBuffer(10), 0.9, explorers.Greedy(),
                  replay_start_size=1, minibatch_size=1)
    agent.act(numpy.float32([1, 0, 0]))
    with pytest.raises(ValueError, match=r"QRDQN.batch_act: observation of shape \(4,\)"):
        agent.act(numpy.float32([1, 0, 0, 0]))


def test_learns_the_optimal_q_values():
    agent = train_on_chain(QRDQN, lambda: q_functions.QuantileFCStateQFunctionWithDiscreteAction(2, 2, 8, 16, 1),
                           steps=800, lr=0.01)
    with agent.eval_mode():
        q_values = agent.model(numpy.eye(2, dtype=numpy.float32)).q_values.array
    numpy.testing.assert_allclose(q_values, Q_STAR, atol=0.05)
