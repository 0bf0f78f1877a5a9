"""kusari.rl.agents.sarsa: the next state valued at the explorer's action, the behaviour policy's
values learned, and ChainerRL 0.8's updates (fixtures/chainerrl/sarsa.npz)."""
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.agents.dqn import DQN
from kusari.rl.agents.sarsa import SARSA
from kusari.rl.replay_buffers import ReplayBuffer
from rl_discrete_chain import (EPSILON, GAMMA, Q_STAR, assert_matches_chainerrl, chainerrl_replay, learn_chain,
                               load_chainerrl_fixture)

W = numpy.array([[1.0, 0.0], [0.0, 2.0]], numpy.float32)          # the model
W_TARGET = numpy.array([[3.0, 0.5], [0.0, -1.0]], numpy.float32)  # the target network


class ScriptedExplorer:
    """Returns the given actions in turn, and records what it was asked with."""

    def __init__(self, actions):
        self.actions, self.calls = list(actions), []

    def select_action(self, t, greedy_action_func, action_value=None):
        self.calls.append((t, int(greedy_action_func()), action_value.q_values.array.copy()))
        return self.actions.pop(0)


def make_agent(cls, explorer):
    q = q_functions.SingleModelStateQFunctionWithDiscreteAction(L.Linear(2, 2, nobias=True, initialW=W.copy()))
    agent = cls(q, optimizers.SGD(lr=0.1).setup(q), ReplayBuffer(1000), 0.5, explorer,
                replay_start_size=2, minibatch_size=2, clip_delta=False)
    agent.target_model.model.W.array[...] = W_TARGET
    return agent


STATES = numpy.float32([[1, 0], [0, 1]])
NEXT_STATES = numpy.float32([[1, 1], [0, 1]])
ACTIONS, REWARDS, TERMINAL = [1, 0], [1.0, -0.5], [False, False]


def update(agent):
    agent.update([[{"state": s, "action": a, "reward": r, "next_state": s2, "next_action": None,
                    "is_state_terminal": d}]
                  for s, a, r, s2, d in zip(STATES, ACTIONS, REWARDS, NEXT_STATES, TERMINAL)])


@pytest.mark.parametrize("next_actions", [[1, 1], [0, 1]])
def test_update_matches_numpy(next_actions):
    gamma, lr = 0.5, 0.1
    explorer = ScriptedExplorer(next_actions)
    agent = make_agent(SARSA, explorer)
    agent.t = 7
    update(agent)
    # asked once per experience, at the agent's step, with the target network's greedy action
    q_next = NEXT_STATES @ W_TARGET.T                               # [[3.5, -1], [0.5, -1]]
    assert [(t, g) for t, g, _ in explorer.calls] == [(7, 0), (7, 0)]
    for (_, _, q_values), expected in zip(explorer.calls, q_next):
        numpy.testing.assert_allclose(q_values, [expected])
    grad = numpy.zeros_like(W)
    for s, a, r, q2, a2 in zip(STATES, ACTIONS, REWARDS, q_next, next_actions):
        grad[a] += ((W @ s)[a] - (r + gamma * q2[a2])) * s / 2    # mean over the batch of 2
    numpy.testing.assert_allclose(agent.model.model.W.array, W - lr * grad, rtol=1e-6)


def test_a_greedy_explorer_makes_it_dqn():
    sarsa, dqn = make_agent(SARSA, explorers.Greedy()), make_agent(DQN, explorers.Greedy())
    update(sarsa)
    update(dqn)
    numpy.testing.assert_array_equal(sarsa.model.model.W.array, dqn.model.model.W.array)


def test_learns_the_behaviour_policys_values():
    _, q = learn_chain(SARSA)
    # epsilon-greedy (0.5 of the time uniform) takes the better action 3/4 of the time in state 1
    greedy_share = 1 - EPSILON / 2
    q_pi = Q_STAR.copy()
    q_pi[0, 0] = GAMMA * (greedy_share * Q_STAR[1, 0] + (1 - greedy_share) * Q_STAR[1, 1])  # 0.675
    numpy.testing.assert_allclose(q, q_pi, atol=0.02)
    assert q[0, 0] < Q_STAR[0, 0] - 0.2  # not Q-learning's value


class RecordedEpsilonGreedy:
    """The fixture's explorer: epsilon-greedy on ChainerRL's recorded draws."""

    def __init__(self, fx):
        self.fx, self.t, self.greedy = fx, [], []

    def select_action(self, t, greedy_action_func, action_value=None):
        k = len(self.greedy)
        self.t.append(t)
        self.greedy.append(int(greedy_action_func()))
        return int(self.fx["random_action"][k]) if self.fx["coin"][k] < self.fx["epsilon"] else self.greedy[-1]


def test_updates_match_chainerrl():
    fx = load_chainerrl_fixture("sarsa")
    explorer = RecordedEpsilonGreedy(fx)
    for agent, u, errors in chainerrl_replay(SARSA, fx, explorer, t=int(fx["t"])):
        assert_matches_chainerrl(agent, fx, u, errors)
    numpy.testing.assert_array_equal(explorer.t, fx["explorer_t"])
    numpy.testing.assert_array_equal(explorer.greedy, fx["explorer_greedy"])
