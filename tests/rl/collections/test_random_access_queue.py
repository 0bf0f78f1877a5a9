import pytest

from kusari.rl.collections import RandomAccessQueue
from kusari.rl.utils import set_random_seed


def test_fifo_with_indexing_against_a_list():
    queue, reference = RandomAccessQueue(maxlen=7), []
    for i in range(50):
        queue.append(i)
        reference = (reference + [i])[-7:]
        if i % 3 == 0:
            assert queue.popleft() == reference.pop(0)
        assert list(queue) == reference and len(queue) == len(reference)
        assert [queue[j] for j in range(-len(reference), len(reference))] == reference + reference


def test_setitem_and_bounds():
    queue = RandomAccessQueue([1, 2, 3])
    queue[-1] = 30
    queue[0] = 10
    assert list(queue) == [10, 2, 30]
    with pytest.raises(IndexError):
        queue[3]
    with pytest.raises(IndexError):
        RandomAccessQueue().popleft()


def test_sample_is_distinct_items():
    set_random_seed(0)
    queue = RandomAccessQueue(range(100))
    for _ in range(5):
        queue.popleft()
    drawn = queue.sample(10)
    assert len(set(drawn)) == 10 and all(5 <= x < 100 for x in drawn)


def test_bad_maxlen():
    with pytest.raises(ValueError, match="RandomAccessQueue: maxlen"):
        RandomAccessQueue(maxlen=-1)
