"""kusari.rl.agents.al: the advantage learning target, and what it learns (PFRL parity: test_pfrl_parity.py)."""
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.agents.al import AL
from kusari.rl.replay_buffers import ReplayBuffer
from rl_discrete_chain import Q_STAR, learn_chain

W = numpy.array([[1.0, 0.0], [0.0, 2.0]], numpy.float32)          # the model
W_TARGET = numpy.array([[3.0, 0.5], [0.0, -1.0]], numpy.float32)  # the target network


def make_al(alpha=0.9):
    q = q_functions.SingleModelStateQFunctionWithDiscreteAction(L.Linear(2, 2, nobias=True, initialW=W.copy()))
    agent = AL(q, optimizers.SGD(lr=0.1).setup(q), ReplayBuffer(1000), 0.5, explorers.Greedy(), alpha=alpha,
               replay_start_size=2, minibatch_size=2, clip_delta=False)
    agent.target_model.model.W.array[...] = W_TARGET
    return agent


@pytest.mark.parametrize("alpha", [0.0, 0.6])
def test_update_matches_numpy(alpha):
    gamma, lr = 0.5, 0.1
    agent = make_al(alpha)
    states = numpy.float32([[1, 0], [0, 1]])
    next_states = numpy.float32([[1, 1], [1, 0]])
    actions, rewards, terminal = [1, 0], [1.0, -0.5], [False, True]
    agent.update([[{"state": s, "action": a, "reward": r, "next_state": s2, "next_action": None,
                    "is_state_terminal": d}]
                  for s, a, r, s2, d in zip(states, actions, rewards, next_states, terminal)])
    grad = numpy.zeros_like(W)
    for s, a, r, s2, d in zip(states, actions, rewards, next_states, terminal):
        q_target, q_target_next = W_TARGET @ s, W_TARGET @ s2
        t = r + (0.0 if d else gamma * q_target_next.max()) + alpha * (q_target[a] - q_target.max())
        grad[a] += ((W @ s)[a] - t) * s / 2                        # mean over the batch of 2
    numpy.testing.assert_allclose(agent.model.model.W.array, W - lr * grad, rtol=1e-6)


@pytest.mark.parametrize("alpha", [-0.1, 1.0])
def test_bad_alpha(alpha):
    with pytest.raises(ValueError, match=r"AL: alpha must be in \[0, 1\), got"):
        make_al(alpha)


def test_learns_the_optimal_values_with_a_wider_action_gap():
    alpha = 0.5
    _, q = learn_chain(AL, alpha=alpha)
    # the fixed point: V* for the greedy actions, (Q* - alpha V*) / (1 - alpha) for the others
    v_star = Q_STAR.max(axis=1, keepdims=True)
    expected = numpy.where(Q_STAR == v_star, Q_STAR, (Q_STAR - alpha * v_star) / (1 - alpha))
    numpy.testing.assert_allclose(q, expected, atol=0.05)
    assert expected[0, 1] < Q_STAR[0, 1] - 0.3  # the gap is wider than Q*'s
