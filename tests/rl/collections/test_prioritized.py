import numpy
import pytest

from kusari.rl.collections import PrioritizedBuffer
from kusari.rl.utils import set_random_seed


def _check_trees(buffer, expected_priorities):
    """Every inner node is the sum / min of its children; leaves hold the expected priorities."""
    assert buffer.priorities() == pytest.approx(expected_priorities)
    for tree, op in ((buffer._sums, lambda a, b: a + b), (buffer._mins, min)):
        nodes = tree.nodes
        for i in range(1, tree.size):
            assert nodes[i] == op(nodes[2 * i], nodes[2 * i + 1])
    assert buffer._sums.root == pytest.approx(sum(expected_priorities))
    assert buffer._mins.root == min(expected_priorities)


def test_trees_after_appends_evictions_and_updates():
    set_random_seed(0)
    buffer, reference = PrioritizedBuffer(capacity=6), []
    for i in range(10):
        priority = 0.5 + i
        buffer.append(f"item{i}", priority)
        reference = (reference + [(f"item{i}", priority)])[-6:]
        _check_trees(buffer, [p for _, p in reference])
        assert list(buffer) == [item for item, _ in reference]
    items, _, _ = buffer.sample(3)
    buffer.set_last_priority([7.0, 8.0, 9.0])
    updated = dict(zip(items, [7.0, 8.0, 9.0]))
    reference = [(item, updated.get(item, p)) for item, p in reference]
    _check_trees(buffer, [p for _, p in reference])
    assert buffer.max_priority == 9.0


def test_unbounded_growth_keeps_order_and_priorities():
    buffer = PrioritizedBuffer()
    for i in range(37):
        buffer.append(i, i + 1.0)
    assert list(buffer) == list(range(37))
    _check_trees(buffer, [i + 1.0 for i in range(37)])


def test_new_items_get_the_largest_priority_so_far():
    buffer = PrioritizedBuffer(initial_max_priority=2.0)
    buffer.append("a")
    buffer.sample(1)
    buffer.set_last_priority([5.0])
    buffer.append("b")
    assert buffer.priorities() == [5.0, 5.0]


def test_single_draw_frequencies_follow_priorities():
    set_random_seed(1)
    priorities = [1.0, 2.0, 3.0, 4.0, 10.0]
    buffer = PrioritizedBuffer()
    for i, p in enumerate(priorities):
        buffer.append(i, p)
    draws = 20000
    counts = numpy.zeros(len(priorities))
    for _ in range(draws):
        (item,), (probability,), min_probability = buffer.sample(1)
        counts[item] += 1
        assert probability == pytest.approx(priorities[item] / sum(priorities))
    assert min_probability == pytest.approx(1.0 / 20.0)
    expected = draws * numpy.array(priorities) / sum(priorities)
    bound = 5 * numpy.sqrt(expected * (1 - expected / draws))
    assert (numpy.abs(counts - expected) < bound).all()


def test_batch_is_distinct_and_priorities_restored():
    set_random_seed(2)
    buffer = PrioritizedBuffer()
    for i in range(8):
        buffer.append(i, 1.0 + (i == 3) * 100.0)
    items, probabilities, _ = buffer.sample(8)
    assert sorted(items) == list(range(8))
    assert sum(probabilities) == pytest.approx(1.0)
    _check_trees(buffer, [1.0 + (i == 3) * 100.0 for i in range(8)])


def test_evicted_items_keep_out_of_the_update():
    set_random_seed(3)
    buffer = PrioritizedBuffer(capacity=2)
    buffer.append("old", 1.0)
    buffer.append("new", 1.0)
    items, _, _ = buffer.sample(2)
    buffer.append("newest")          # evicts "old", reusing its slot
    buffer.set_last_priority([4.0 if item == "old" else 3.0 for item in items])
    assert list(buffer) == ["new", "newest"]
    assert buffer.priorities() == [3.0, 1.0]


def test_errors():
    buffer = PrioritizedBuffer()
    buffer.append("a")
    with pytest.raises(ValueError, match="set_last_priority: nothing sampled"):
        buffer.set_last_priority([1.0])
    buffer.sample(1)
    with pytest.raises(ValueError, match="got 2 priorities for 1 sampled"):
        buffer.set_last_priority([1.0, 2.0])
    with pytest.raises(ValueError, match="must be > 0"):
        buffer.set_last_priority([0.0])
    with pytest.raises(ValueError, match="sample: n=2 but the buffer holds 1"):
        buffer.sample(2)
    with pytest.raises(ValueError, match="capacity"):
        PrioritizedBuffer(capacity=0)
