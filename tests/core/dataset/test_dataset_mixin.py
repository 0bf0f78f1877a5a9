import numpy
import pytest

from kusari.dataset import DatasetMixin


class Squares(DatasetMixin):
    def __init__(self, n):
        self.n = n
        self.calls = []

    def __len__(self):
        return self.n

    def get_example(self, i):
        self.calls.append(i)
        if not 0 <= i < self.n:
            raise IndexError(i)
        return i * i


def test_indexing_forms():
    d = Squares(6)
    assert d[3] == 9
    assert d[1:5:2] == [1, 9]
    assert d[-2:] == [16, 25]
    assert d[[4, 0]] == [16, 0]
    assert d[numpy.array([5, 1])] == [25, 1]
    assert all(type(i) is int for i in d.calls[1:])


def test_unimplemented_methods_name_the_class():
    class Empty(DatasetMixin):
        pass

    with pytest.raises(NotImplementedError, match="Empty must implement __len__"):
        len(Empty())
    with pytest.raises(NotImplementedError, match=r"Empty must implement get_example\(i\)"):
        Empty()[0]
