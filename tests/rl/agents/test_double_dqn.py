"""kusari.rl.agents.double_dqn: the target values the model's greedy next action with the target network."""
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.agents.double_dqn import DoubleDQN
from kusari.rl.agents.dqn import DQN
from kusari.rl.replay_buffers import ReplayBuffer

W = numpy.array([[1.0, 0.0], [0.0, 2.0]], numpy.float32)      # the model: prefers action 1 at s'
W_TARGET = numpy.array([[3.0, 0.0], [0.0, -1.0]], numpy.float32)  # the target: prefers action 0


def agent_with_target(cls):
    q = q_functions.SingleModelStateQFunctionWithDiscreteAction(L.Linear(2, 2, nobias=True, initialW=W.copy()))
    agent = cls(q, optimizers.SGD(lr=0.1).setup(q), ReplayBuffer(10), 0.5, explorers.Greedy(),
                replay_start_size=1, minibatch_size=1, clip_delta=False)
    agent.target_model.model.W.array[...] = W_TARGET
    return agent


@pytest.mark.parametrize("cls, next_value", [
    (DoubleDQN, -1.0),   # Q_target(s', argmax_a Q(s', a) = 1) = -1
    (DQN, 3.0),          # max_a Q_target(s', a) = 3
])
def test_update_matches_numpy(cls, next_value):
    gamma, lr, reward = 0.5, 0.1, 1.0
    agent = agent_with_target(cls)
    state, next_state = numpy.float32([1, 1]), numpy.float32([1, 1])
    agent.update([[{"state": state, "action": 0, "reward": reward, "next_state": next_state, "next_action": None,
                        "is_state_terminal": False}]])
    y = W[0] @ state
    t = reward + gamma * next_value
    expected = W.copy()
    expected[0] -= lr * (y - t) * state
    numpy.testing.assert_allclose(agent.model.model.W.array, expected, rtol=1e-6)
    numpy.testing.assert_allclose(dict(agent.get_statistics())["average_loss"], 0.5 * (y - t) ** 2, rtol=1e-6)


def test_terminal_transitions_do_not_bootstrap():
    agent = agent_with_target(DoubleDQN)
    errors = []
    agent.update([[{"state": numpy.float32([1, 1]), "action": 1, "reward": -3.0, "next_state": numpy.float32([1, 1]),
                        "next_action": None, "is_state_terminal": True}]], errors_out=errors)
    numpy.testing.assert_allclose(errors, [abs(W[1].sum() - (-3.0))], rtol=1e-6)
