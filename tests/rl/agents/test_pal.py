"""kusari.rl.agents.pal and double_pal: the persistent advantage learning target, and what it learns."""
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.agents.double_pal import DoublePAL
from kusari.rl.agents.pal import PAL
from kusari.rl.replay_buffers import ReplayBuffer
from rl_discrete_chain import learn_chain

W = numpy.array([[1.0, 0.0], [0.0, 2.0]], numpy.float32)          # the model
W_TARGET = numpy.array([[3.0, 0.5], [0.0, -1.0]], numpy.float32)  # the target network


def make_pal(cls, alpha=0.9, **kwargs):
    q = q_functions.SingleModelStateQFunctionWithDiscreteAction(L.Linear(2, 2, nobias=True, initialW=W.copy()))
    return cls(q, optimizers.SGD(lr=0.1).setup(q), ReplayBuffer(1000), 0.5, explorers.Greedy(),
               alpha=alpha, replay_start_size=1, minibatch_size=1, clip_delta=False, **kwargs)


@pytest.mark.parametrize("cls", [PAL, DoublePAL])
@pytest.mark.parametrize("terminal", [False, True])
def test_update_matches_numpy(cls, terminal):
    gamma, lr, alpha, reward, action = 0.5, 0.1, 0.9, 1.0, 1
    agent = make_pal(cls, alpha=alpha)
    agent.target_model.model.W.array[...] = W_TARGET
    s, s2 = numpy.float32([1, 0]), numpy.float32([1, 1])
    agent.update([[{"state": s, "action": action, "reward": reward, "next_state": s2, "next_action": None,
                        "is_state_terminal": terminal}]])
    q_target_s, q_target_s2 = W_TARGET @ s, W_TARGET @ s2          # [3, 0] and [3.5, -1]
    if cls is PAL:
        next_value = q_target_s2.max()
    else:
        next_value = q_target_s2[numpy.argmax(W @ s2)]              # the model picks action 1: -1
    t_q = reward + (0.0 if terminal else gamma * next_value)
    advantage = max(q_target_s[action] - q_target_s.max(), q_target_s2[action] - q_target_s2.max())
    t = t_q + alpha * advantage
    y = (W @ s)[action]
    expected = W.copy()
    expected[action] -= lr * (y - t) * s
    numpy.testing.assert_allclose(agent.model.model.W.array, expected, rtol=1e-6)


def test_alpha_is_read_at_each_update():
    agent = make_pal(PAL, alpha=0.5)
    agent.target_model.model.W.array[...] = W_TARGET
    agent.alpha = 0.0  # PAL with alpha 0 is DQN
    s = numpy.float32([1, 0])
    agent.update([[{"state": s, "action": 1, "reward": 1.0, "next_state": s, "next_action": None, "is_state_terminal": True}]])
    expected = W.copy()
    expected[1] -= 0.1 * ((W @ s)[1] - 1.0) * s
    numpy.testing.assert_allclose(agent.model.model.W.array, expected, rtol=1e-6)


@pytest.mark.parametrize("alpha", [-0.1, 1.0])
def test_bad_alpha(alpha):
    with pytest.raises(ValueError, match=r"PAL: alpha must be in \[0, 1\)"):
        make_pal(PAL, alpha=alpha)


@pytest.mark.parametrize("cls", [PAL, DoublePAL])
def test_learns_the_optimal_values_with_a_wider_action_gap(cls):
    _, q_values = learn_chain(cls, alpha=0.5)
    # the greedy values are V*; the suboptimal actions sit below Q*(0, 1) = 0.5 and Q*(1, 1) = 0
    numpy.testing.assert_allclose(q_values.max(axis=1), [0.9, 1.0], atol=0.05)
    numpy.testing.assert_array_equal(q_values.argmax(axis=1), [0, 0])
    assert q_values[0, 1] < 0.5 - 0.1 and q_values[1, 1] < -0.1
