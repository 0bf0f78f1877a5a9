"""kusari.rl.agents.al: the advantage learning target, and what it learns (PFRL parity: test_pfrl_parity.py)."""
import numpy
import pytest
from kusari.rl.agents.al import AL
from rl_discrete_chain import Q_STAR, UPDATE_GAMMA, assert_update_matches, learn_chain, linear_agent


@pytest.mark.parametrize("alpha", [0.0, 0.6])
def test_update_matches_numpy(alpha):
    assert_update_matches(linear_agent(AL, alpha=alpha), lambda q, q_next, a, r, d: (
        r + (0.0 if d else UPDATE_GAMMA * q_next.max()) + alpha * (q[a] - q.max())))


@pytest.mark.parametrize("alpha", [-0.1, 1.0])
def test_bad_alpha(alpha):
    with pytest.raises(ValueError, match=r"AL: alpha must be in \[0, 1\), got"):
        linear_agent(AL, alpha=alpha)


def test_learns_the_optimal_values_with_a_wider_action_gap():
    alpha = 0.5
    _, q = learn_chain(AL, alpha=alpha)
    # the fixed point: V* for the greedy actions, (Q* - alpha V*) / (1 - alpha) for the others
    v_star = Q_STAR.max(axis=1, keepdims=True)
    expected = numpy.where(Q_STAR == v_star, Q_STAR, (Q_STAR - alpha * v_star) / (1 - alpha))
    numpy.testing.assert_allclose(q, expected, atol=0.05)
    assert expected[0, 1] < Q_STAR[0, 1] - 0.3  # the gap is wider than Q*'s
