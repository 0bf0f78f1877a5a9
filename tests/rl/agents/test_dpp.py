"""kusari.rl.agents.dpp: the DPP targets of its three operators, and what they learn (PFRL parity:
test_pfrl_parity.py)."""
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.action_value import DiscreteActionValue
from kusari.rl.agents.dpp import DPP, DPPL, AbstractDPP, DPPGreedy
from kusari.rl.replay_buffers import ReplayBuffer
from rl_discrete_chain import Q_STAR, learn_chain

W = numpy.array([[1.0, 0.0], [0.0, 2.0]], numpy.float32)          # the model
W_TARGET = numpy.array([[3.0, 0.5], [0.0, -1.0]], numpy.float32)  # the target network


def boltzmann(psi, eta):
    p = numpy.exp(eta * (psi - psi.max()))
    return (p / p.sum() * psi).sum()


def soft_max(psi, eta):
    return numpy.log(numpy.exp(eta * psi).sum()) / eta


OPERATORS = {DPP: boltzmann, DPPL: soft_max, DPPGreedy: lambda psi, eta: psi.max()}


def make_dpp(cls, **kwargs):
    q = q_functions.SingleModelStateQFunctionWithDiscreteAction(L.Linear(2, 2, nobias=True, initialW=W.copy()))
    agent = cls(q, optimizers.SGD(lr=0.1).setup(q), ReplayBuffer(1000), 0.5, explorers.Greedy(),
                replay_start_size=2, minibatch_size=2, clip_delta=False, **kwargs)
    agent.target_model.model.W.array[...] = W_TARGET
    return agent


@pytest.mark.parametrize("cls", [DPP, DPPL, DPPGreedy])
def test_update_matches_numpy(cls):
    gamma, lr, eta = 0.5, 0.1, 0.7
    agent = make_dpp(cls, **({} if cls is DPPGreedy else {"eta": eta}))
    operator = OPERATORS[cls]
    states = numpy.float32([[1, 0], [0, 1]])
    next_states = numpy.float32([[1, 1], [1, 0]])
    actions, rewards, terminal = [1, 0], [1.0, -0.5], [False, True]
    agent.update([[{"state": s, "action": a, "reward": r, "next_state": s2, "next_action": None,
                    "is_state_terminal": d}]
                  for s, a, r, s2, d in zip(states, actions, rewards, next_states, terminal)])
    grad = numpy.zeros_like(W)
    for s, a, r, s2, d in zip(states, actions, rewards, next_states, terminal):
        psi, psi_next = W_TARGET @ s, W_TARGET @ s2
        t = psi[a] + r + (0.0 if d else gamma * operator(psi_next, eta)) - operator(psi, eta)
        grad[a] += ((W @ s)[a] - t) * s / 2                        # mean over the batch of 2
    numpy.testing.assert_allclose(agent.model.model.W.array, W - lr * grad, rtol=1e-6)


def test_operators_order():
    # max >= Boltzmann average, soft max >= max, and both tend to max as eta grows
    psi = DiscreteActionValue(numpy.float32([[0.0, 1.0, 3.0]]))
    for eta, atol in ((1.0, 1.0), (50.0, 1e-3)):
        boltzmann_avg = make_dpp(DPP, eta=eta)._l_operator(psi).array[0]
        soft = make_dpp(DPPL, eta=eta)._l_operator(psi).array[0]
        assert boltzmann_avg <= 3.0 <= soft
        numpy.testing.assert_allclose([boltzmann_avg, soft], [3.0, 3.0], atol=atol)


@pytest.mark.parametrize("cls", [DPP, DPPL])
@pytest.mark.parametrize("eta", [0.0, -1.0])
def test_bad_eta(cls, eta):
    with pytest.raises(ValueError, match=rf"{cls.__name__}: eta must be > 0, got"):
        make_dpp(cls, eta=eta)


def test_abstract_dpp_needs_an_operator():
    with pytest.raises(TypeError, match="_l_operator"):
        make_dpp(AbstractDPP)


@pytest.mark.parametrize("cls, kwargs", [(DPP, {"eta": 10.0}), (DPPL, {"eta": 10.0}), (DPPGreedy, {})])
def test_learns_the_optimal_values_and_policy(cls, kwargs):
    agent, q = learn_chain(cls, **kwargs)
    # L Psi converges to V*; the preferences of the other actions keep falling (by Q* - V* per sweep)
    values = agent._l_operator(DiscreteActionValue(q)).array
    numpy.testing.assert_allclose(values, Q_STAR.max(axis=1), atol=0.05)
    numpy.testing.assert_array_equal(q.argmax(axis=1), [0, 0])
    assert (q[:, 1] < -5).all(), q
