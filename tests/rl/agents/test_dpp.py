"""kusari.rl.agents.dpp: the DPP targets of its three operators, and what they learn (PFRL parity:
test_pfrl_parity.py)."""
import numpy
import pytest
from kusari.rl.action_value import DiscreteActionValue
from kusari.rl.agents.dpp import DPP, DPPL, AbstractDPP, DPPGreedy
from rl_discrete_chain import Q_STAR, UPDATE_GAMMA, assert_update_matches, learn_chain, linear_agent


def boltzmann(psi, eta):
    p = numpy.exp(eta * (psi - psi.max()))
    return (p / p.sum() * psi).sum()


def soft_max(psi, eta):
    return numpy.log(numpy.exp(eta * psi).sum()) / eta


OPERATORS = {DPP: boltzmann, DPPL: soft_max, DPPGreedy: lambda psi, eta: psi.max()}


@pytest.mark.parametrize("cls", [DPP, DPPL, DPPGreedy])
def test_update_matches_numpy(cls):
    eta = 0.7
    operator = OPERATORS[cls]
    agent = linear_agent(cls, **({} if cls is DPPGreedy else {"eta": eta}))
    assert_update_matches(agent, lambda psi, psi_next, a, r, d: (
        psi[a] + r + (0.0 if d else UPDATE_GAMMA * operator(psi_next, eta)) - operator(psi, eta)))


def test_operators_order():
    # max >= Boltzmann average, soft max >= max, and both tend to max as eta grows
    psi = DiscreteActionValue(numpy.float32([[0.0, 1.0, 3.0]]))
    for eta, atol in ((1.0, 1.0), (50.0, 1e-3)):
        boltzmann_avg = linear_agent(DPP, eta=eta)._l_operator(psi).array[0]
        soft = linear_agent(DPPL, eta=eta)._l_operator(psi).array[0]
        assert boltzmann_avg <= 3.0 <= soft
        numpy.testing.assert_allclose([boltzmann_avg, soft], [3.0, 3.0], atol=atol)


@pytest.mark.parametrize("cls", [DPP, DPPL])
@pytest.mark.parametrize("eta", [0.0, -1.0])
def test_bad_eta(cls, eta):
    with pytest.raises(ValueError, match=rf"{cls.__name__}: eta must be > 0, got"):
        linear_agent(cls, eta=eta)


def test_abstract_dpp_needs_an_operator():
    with pytest.raises(TypeError, match="_l_operator"):
        linear_agent(AbstractDPP)


@pytest.mark.parametrize("cls, kwargs", [(DPP, {"eta": 10.0}), (DPPL, {"eta": 10.0}), (DPPGreedy, {})])
def test_learns_the_optimal_values_and_policy(cls, kwargs):
    agent, q = learn_chain(cls, **kwargs)
    # L Psi converges to V*; the preferences of the other actions keep falling (by Q* - V* per sweep)
    values = agent._l_operator(DiscreteActionValue(q)).array
    numpy.testing.assert_allclose(values, Q_STAR.max(axis=1), atol=0.05)
    numpy.testing.assert_array_equal(q.argmax(axis=1), [0, 0])
    assert (q[:, 1] < -5).all(), q
