import pytest

from kusari.dataset import Iterator


class Countdown(Iterator):
    def __init__(self, n):
        self.n = n
        self.finalized = False

    def __next__(self):
        if self.n == 0:
            raise StopIteration
        self.n -= 1
        return [self.n]

    def finalize(self):
        self.finalized = True


def test_protocol_and_context_manager():
    with Countdown(3) as it:
        assert iter(it) is it
        assert it.next() == [2]
        assert list(it) == [[1], [0]]
    assert it.finalized


def test_base_next_is_abstract():
    with pytest.raises(NotImplementedError, match="Iterator must implement __next__"):
        next(Iterator())
