import numpy
import pytest

from kusari.datasets import TupleDataset


def test_examples_are_tuples():
    x = numpy.arange(12, dtype=numpy.float32).reshape(4, 3)
    t = numpy.array([5, 6, 7, 8], dtype=numpy.int32)
    d = TupleDataset(x, t)
    assert len(d) == 4
    xi, ti = d[2]
    numpy.testing.assert_array_equal(xi, [6, 7, 8])
    assert ti == 7 and xi.dtype == numpy.float32


@pytest.mark.parametrize("index", [slice(1, 3), [1, 2], numpy.array([1, 2])])
def test_batch_indexing_gives_a_list_of_tuples(index):
    d = TupleDataset(numpy.arange(4), numpy.arange(4) * 10)
    assert [(int(a), int(b)) for a, b in d[index]] == [(1, 10), (2, 20)]


def test_errors():
    with pytest.raises(ValueError, match="TupleDataset: no datasets are given"):
        TupleDataset()
    with pytest.raises(ValueError, match="TupleDataset: dataset 1 has length 2 but dataset 0 has 3"):
        TupleDataset([1, 2, 3], [1, 2])
