import numpy
import pytest

from kusari.rl.explorers import (ConstantEpsilonGreedy, ExponentialDecayEpsilonGreedy,
                                 LinearDecayEpsilonGreedy)
from kusari.rl.utils import set_random_seed


def _random():
    return "random"


@pytest.mark.parametrize("t,epsilon", [(0, 1.0), (50, 0.55), (75, 0.325), (100, 0.1), (150, 0.1)])
def test_linear_schedule(t, epsilon):
    explorer = LinearDecayEpsilonGreedy(1.0, 0.1, 100, _random)
    explorer.select_action(t, lambda: "greedy")
    assert explorer.epsilon == pytest.approx(epsilon, abs=1e-12)


def test_linear_with_zero_decay_steps_is_end_epsilon():
    assert LinearDecayEpsilonGreedy(1.0, 0.2, 0, _random).compute_epsilon(0) == 0.2


@pytest.mark.parametrize("t,epsilon", [(0, 1.0), (1, 0.5), (3, 0.125), (4, 0.1), (40, 0.1)])
def test_exponential_schedule(t, epsilon):
    explorer = ExponentialDecayEpsilonGreedy(1.0, 0.1, 0.5, _random)
    explorer.select_action(t, lambda: "greedy")
    assert explorer.epsilon == pytest.approx(epsilon, abs=1e-12)


@pytest.mark.parametrize("epsilon", [0.0, 0.3, 1.0])
def test_random_fraction_within_binomial_bound_and_greedy_only_when_needed(epsilon):
    set_random_seed(0)
    explorer = ConstantEpsilonGreedy(epsilon, _random)
    greedy_calls = []
    draws = 10000
    actions = [explorer.select_action(t, lambda: greedy_calls.append(1) or "greedy") for t in range(draws)]
    n_random = actions.count("random")
    assert abs(n_random - draws * epsilon) <= 5 * numpy.sqrt(draws * epsilon * (1 - epsilon))
    assert len(greedy_calls) == draws - n_random   # the greedy action is computed only when taken


def test_seeded_runs_repeat():
    def run():
        set_random_seed(7)
        explorer = LinearDecayEpsilonGreedy(1.0, 0.0, 50, lambda: "random")
        return [explorer.select_action(t, lambda: "greedy") for t in range(60)]
    first = run()
    assert first == run() and "random" in first and "greedy" in first


@pytest.mark.parametrize("make,message", [
    (lambda: ConstantEpsilonGreedy(1.5, _random), r"ConstantEpsilonGreedy: epsilon .*1\.5"),
    (lambda: ConstantEpsilonGreedy(-0.1, _random), r"ConstantEpsilonGreedy: epsilon .*-0\.1"),
    (lambda: LinearDecayEpsilonGreedy(2, 0.1, 10, _random), "LinearDecayEpsilonGreedy: start_epsilon .*2"),
    (lambda: LinearDecayEpsilonGreedy(1, -1, 10, _random), "LinearDecayEpsilonGreedy: end_epsilon .*-1"),
    (lambda: LinearDecayEpsilonGreedy(1, 0.1, -5, _random), "LinearDecayEpsilonGreedy: decay_steps .*-5"),
    (lambda: ExponentialDecayEpsilonGreedy(1, 0.1, 1.0, _random), "ExponentialDecayEpsilonGreedy: decay .*1.0"),
    (lambda: ExponentialDecayEpsilonGreedy(1, 1.1, 0.5, _random), "ExponentialDecayEpsilonGreedy: end_epsilon"),
])
def test_bad_arguments(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_random_action_func_must_be_callable():
    with pytest.raises(TypeError, match="ConstantEpsilonGreedy: random_action_func"):
        ConstantEpsilonGreedy(0.1, 3)


def test_repr():
    assert repr(ConstantEpsilonGreedy(0.3, _random)) == "ConstantEpsilonGreedy(epsilon=0.3)"
    explorer = LinearDecayEpsilonGreedy(1.0, 0.1, 100, _random)
    explorer.select_action(100, lambda: 0)
    assert repr(explorer) == "LinearDecayEpsilonGreedy(epsilon=0.1)"
    assert repr(ExponentialDecayEpsilonGreedy(0.5, 0.1, 0.9, _random)) == \
        "ExponentialDecayEpsilonGreedy(epsilon=0.5)"
