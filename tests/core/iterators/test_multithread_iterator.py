import threading

import pytest

from kusari.dataset import DatasetMixin
from kusari.iterators import MultithreadIterator


class MeetingDataset(DatasetMixin):
    """Each read waits until ``parties`` reads are in progress at once."""

    def __init__(self, n, parties):
        self.n = n
        self.barrier = threading.Barrier(parties, timeout=10)

    def __len__(self):
        return self.n

    def get_example(self, i):
        self.barrier.wait()
        return i


def test_examples_of_a_batch_load_concurrently():
    with MultithreadIterator(MeetingDataset(4, parties=4), 4, n_threads=4, shuffle=False) as it:
        assert it.n_threads == 4
        assert next(it) == [0, 1, 2, 3]  # a serial read would break the barrier


def test_argument_errors():
    with pytest.raises(ValueError, match="MultithreadIterator: n_threads must be a positive int, got 0"):
        MultithreadIterator([1], 1, n_threads=0)
    with pytest.raises(ValueError, match="MultithreadIterator: give shuffle or order_sampler, not both"):
        MultithreadIterator([1], 1, shuffle=False, order_sampler=lambda o, p: o)
