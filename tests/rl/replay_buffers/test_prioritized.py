import numpy
import pytest

from kusari.rl.replay_buffers import PrioritizedReplayBuffer, PriorityWeightError, ReplayBuffer
from kusari.rl.utils import set_random_seed


def _filled(n, **kwargs):
    buffer = PrioritizedReplayBuffer(**kwargs)
    for s in range(n):
        buffer.append(s, 0, 1.0, s + 1)
    return buffer


def test_priorities_from_errors():
    buffer = _filled(1, alpha=0.5, eps=0.01, error_min=0.1, error_max=1.0)
    priorities = buffer.priority_from_errors([0.0, 0.5, 3.0])
    assert priorities == pytest.approx([0.11 ** 0.5, 0.51 ** 0.5, 1.01 ** 0.5])


def test_update_errors_shape_sampling_frequencies():
    set_random_seed(0)
    buffer = _filled(4, alpha=1.0, eps=0.0, error_min=None, error_max=None, betasteps=None)
    batch = buffer.sample(4)
    errors = {0: 1.0, 1: 2.0, 2: 3.0, 3: 4.0}
    buffer.update_errors([errors[e[0]["state"]] for e in batch])
    draws = 20000
    counts = numpy.zeros(4)
    for _ in range(draws):
        (experience,) = buffer.sample(1)
        counts[experience[0]["state"]] += 1
        buffer.update_errors([errors[experience[0]["state"]]])
    expected = draws * numpy.array([1, 2, 3, 4]) / 10
    assert (numpy.abs(counts - expected) < 5 * numpy.sqrt(expected)).all()


@pytest.mark.parametrize("normalize_by_max", [True, "batch", "memory", False])
def test_importance_weights_and_beta_annealing(normalize_by_max):
    set_random_seed(1)
    buffer = _filled(3, alpha=1.0, eps=0.0, error_min=None, error_max=None,
                     beta0=0.5, betasteps=4, normalize_by_max=normalize_by_max)
    batch = buffer.sample(3)
    errors = {0: 1.0, 1: 2.0, 2: 5.0}
    buffer.update_errors([errors[e[0]["state"]] for e in batch])
    # beta was 0.5 for the first batch; now 0.5 + (1 - 0.5) / 4
    beta = 0.625
    batch = buffer.sample(2)
    p = {s: errors[s] / 8.0 for s in errors}
    drawn = [e[0]["state"] for e in batch]
    if normalize_by_max is False:
        expected = [(3 * p[s]) ** -beta for s in drawn]
    else:
        p_min = min(p[s] for s in drawn) if normalize_by_max != "memory" else p[0]
        expected = [(p[s] / p_min) ** -beta for s in drawn]
    assert [e[0]["weight"] for e in batch] == pytest.approx(expected)
    assert buffer.beta == pytest.approx(0.75)
    assert all("weight" not in e[0] for e in buffer.memory)     # stored transitions untouched


@pytest.mark.parametrize("normalize_by_max,expected", [
    ("batch", [1.0, 0.5 ** 0.5]),                    # (p / 0.25) ** -0.5
    ("memory", [2.5 ** -0.5, 5.0 ** -0.5]),          # (p / 0.1) ** -0.5
    (False, [(4 * 0.25) ** -0.5, (4 * 0.5) ** -0.5]),  # (len * p) ** -0.5 with 4 stored
])
def test_weights_from_probabilities(normalize_by_max, expected):
    buffer = _filled(4, beta0=0.5, normalize_by_max=normalize_by_max)
    assert buffer.weights_from_probabilities([0.25, 0.5], 0.1) == pytest.approx(expected)


def test_beta_stops_at_one():
    buffer = _filled(2, beta0=0.9, betasteps=1)
    for _ in range(3):
        buffer.sample(1)
        buffer.update_errors([0.5])
    assert buffer.beta == 1.0


def test_n_step_experiences():
    buffer = PrioritizedReplayBuffer(num_steps=2)
    for s in range(3):
        buffer.append(s, 0, 1.0, s + 1, is_state_terminal=s == 2)
    assert [[t["state"] for t in e] for e in buffer.memory] == [[0, 1], [1, 2], [2]]


def test_capacity():
    buffer = _filled(10, capacity=4)
    assert len(buffer) == 4 and [e[0]["state"] for e in buffer.memory] == [6, 7, 8, 9]


@pytest.mark.parametrize("kwargs,message", [
    (dict(alpha=-1), "PrioritizedReplayBuffer: alpha"),
    (dict(beta0=1.5), "PrioritizedReplayBuffer: beta0"),
    (dict(betasteps=0), "PrioritizedReplayBuffer: betasteps"),
    (dict(normalize_by_max="max"), "PrioritizedReplayBuffer: normalize_by_max"),
    (dict(error_min=2, error_max=1), "PrioritizedReplayBuffer: error_min"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        PrioritizedReplayBuffer(**kwargs)


def test_sample_size():
    with pytest.raises(ValueError, match="PrioritizedReplayBuffer: cannot sample 3 experiences; the buffer holds 2"):
        _filled(2).sample(3)


def test_save_load_keeps_priorities(tmp_path):
    set_random_seed(2)
    buffer = _filled(5, alpha=1.0, eps=0.0, error_min=None, error_max=None)
    batch = buffer.sample(2)
    buffer.update_errors([3.0, 7.0])
    buffer.save(tmp_path / "p.npz")
    loaded = PrioritizedReplayBuffer()
    loaded.load(tmp_path / "p.npz")
    assert loaded.memory.priorities() == buffer.memory.priorities()
    assert loaded.memory.max_priority == 7.0
    assert [e[0]["state"] for e in loaded.memory] == list(range(5))
    updated = {e[0]["state"] for e in batch}
    assert sorted(loaded.memory.priorities()) == [1.0, 1.0, 1.0, 3.0, 7.0] and len(updated) == 2
    with pytest.raises(ValueError, match="holds a 'PrioritizedReplayBuffer' buffer"):
        ReplayBuffer().load(tmp_path / "p.npz")


def test_priority_weight_error_is_exported():
    assert issubclass(PrioritizedReplayBuffer, PriorityWeightError)
