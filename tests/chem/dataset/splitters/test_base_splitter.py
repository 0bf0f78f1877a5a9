import numpy
import pytest

from kusari.chem.dataset.splitters.base_splitter import BaseSplitter
from kusari.chem.dataset.splitters.random_splitter import RandomSplitter


class TupleOfArrays:
    """Minimal stand-in of NumpyTupleDataset: a tuple of equal-length arrays."""

    def __init__(self, *datasets):
        self._datasets = datasets

    def __len__(self):
        return len(self._datasets[0])

    def get_datasets(self):
        return self._datasets


def test_numpy_tuple_dataset_is_rebuilt_from_its_rows():
    x = numpy.arange(20).reshape(10, 2)
    t = numpy.arange(10) * 10
    train, valid, test = RandomSplitter().train_valid_test_split(
        TupleOfArrays(x, t), seed=1, return_index=False)
    perm = numpy.random.RandomState(1).permutation(10)
    for part, rows in ((train, perm[:8]), (valid, perm[8:9]), (test, perm[9:])):
        assert isinstance(part, TupleOfArrays)
        numpy.testing.assert_array_equal(part.get_datasets()[0], x[rows])
        numpy.testing.assert_array_equal(part.get_datasets()[1], t[rows])


def test_array_dataset_is_indexed():
    data = numpy.arange(10) * 3
    train, valid = RandomSplitter().train_valid_split(data, seed=2, return_index=False)
    perm = numpy.random.RandomState(2).permutation(10)
    numpy.testing.assert_array_equal(train, data[perm[:9]])
    numpy.testing.assert_array_equal(valid, data[perm[9:]])


def test_custom_converter_is_called_per_part():
    calls = []
    RandomSplitter().train_valid_test_split(
        numpy.zeros(10), seed=0, return_index=False,
        converter=lambda dataset, indices: calls.append(len(indices)))
    assert calls == [8, 1, 1]


def test_base_methods_are_abstract():
    with pytest.raises(NotImplementedError, match="k_fold_split"):
        BaseSplitter().k_fold_split(numpy.zeros(4), 2)
    with pytest.raises(NotImplementedError, match="_split"):
        BaseSplitter().train_valid_test_split(numpy.zeros(4))
