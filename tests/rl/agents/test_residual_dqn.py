"""kusari.rl.agents.residual_dqn: the residual gradient through the target, no target network, and
ChainerRL 0.8's updates (fixtures/chainerrl/residual_dqn.npz)."""
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.agents.residual_dqn import ResidualDQN
from kusari.rl.replay_buffers import ReplayBuffer
from rl_discrete_chain import Q_STAR, assert_matches_chainerrl, chainerrl_replay, learn_chain, load_chainerrl_fixture

W = numpy.array([[1.0, 0.0], [0.0, 2.0]], numpy.float32)


def make_agent(**kwargs):
    q = q_functions.SingleModelStateQFunctionWithDiscreteAction(L.Linear(2, 2, nobias=True, initialW=W.copy()))
    kwargs.setdefault("clip_delta", False)
    return ResidualDQN(q, optimizers.SGD(lr=0.1).setup(q), ReplayBuffer(1000), 0.5, explorers.Greedy(),
                       replay_start_size=2, minibatch_size=2, **kwargs)


STATES = numpy.float32([[1, 0], [0, 1]])
NEXT_STATES = numpy.float32([[1, 1], [1, 0]])
ACTIONS, REWARDS = [1, 0], [1.0, -3.5]


@pytest.mark.parametrize("grad_scale", [1.0, 0.5, 0.0])
@pytest.mark.parametrize("clip_delta", [False, True])
@pytest.mark.parametrize("terminal", [False, True])
def test_update_matches_numpy(grad_scale, clip_delta, terminal):
    gamma, lr = 0.5, 0.1
    agent = make_agent(grad_scale=grad_scale, clip_delta=clip_delta)
    errors = []
    agent.update([[{"state": s, "action": a, "reward": r, "next_state": s2, "next_action": None,
                    "is_state_terminal": terminal and i == 1}]
                  for i, (s, a, r, s2) in enumerate(zip(STATES, ACTIONS, REWARDS, NEXT_STATES))],
                 errors_out=errors)
    grad, expected_errors = numpy.zeros_like(W), []
    for i, (s, a, r, s2) in enumerate(zip(STATES, ACTIONS, REWARDS, NEXT_STATES)):
        alive = 0.0 if terminal and i == 1 else 1.0
        q_next = W @ s2
        t = r + gamma * alive * q_next.max()
        d = (W @ s)[a] - t
        expected_errors.append(abs(d))
        d = numpy.clip(d, -1, 1) if clip_delta else d
        # d/dW of loss(Q(s, a) - t) with t's gradient scaled: d * (dQ(s, a) - scale * dt)
        grad[a] += d * s / 2
        grad[q_next.argmax()] -= d * grad_scale * gamma * alive * s2 / 2
    numpy.testing.assert_allclose(agent.model.model.W.array, W - lr * grad, rtol=1e-6)
    numpy.testing.assert_allclose(errors, expected_errors, rtol=1e-6)
    assert max(expected_errors) > 1  # the Huber loss clips one


def test_no_target_network(tmp_path):
    agent = make_agent()
    assert agent.target_model is agent.model
    agent.sync_target_network()
    assert agent.target_model is agent.model
    agent.save(tmp_path)
    with numpy.load(tmp_path / "agent.npz") as f:
        assert not any(key.startswith("target_model") for key in f.files), f.files
        assert any(key.startswith("model/") for key in f.files), f.files
    twin = make_agent()
    twin.model.model.W.array[...] = 0
    twin.load(tmp_path)
    numpy.testing.assert_array_equal(twin.model.model.W.array, W)
    assert twin.target_model is twin.model


@pytest.mark.parametrize("grad_scale", [1.0, 0.0])
def test_learns_the_optimal_q_values(grad_scale):
    _, q = learn_chain(ResidualDQN, grad_scale=grad_scale)
    numpy.testing.assert_allclose(q, Q_STAR, atol=0.05)


def test_updates_match_chainerrl():
    fx = load_chainerrl_fixture("residual_dqn")
    for agent, u, errors in chainerrl_replay(ResidualDQN, fx, explorers.Greedy(), grad_scale=float(fx["grad_scale"])):
        assert_matches_chainerrl(agent, fx, u, errors)
