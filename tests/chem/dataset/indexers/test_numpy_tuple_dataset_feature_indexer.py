import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.dataset.indexers import NumpyTupleDatasetFeatureIndexer  # noqa: E402
from kusari.chem.datasets.numpy_tuple_dataset import NumpyTupleDataset  # noqa: E402


def test_features_of_a_numpy_tuple_dataset():
    x = numpy.array([0, 1, 2], dtype=numpy.float32)
    dataset = NumpyTupleDataset(x, x * x)
    features = dataset.features
    assert isinstance(features, NumpyTupleDatasetFeatureIndexer) and features.shape == (3, 2)
    numpy.testing.assert_array_equal(features[:, 1], [0, 1, 4])
    assert features[:, 1].dtype == numpy.float32
    assert numpy.shares_memory(features[1:, 0], x)   # a slice is a view, no per-example copy
    _, second = features[[0, 2]]
    numpy.testing.assert_array_equal(second, [0, 4])
    assert features[2, 0] == 2


def test_ragged_column():
    ragged = numpy.empty(2, dtype=object)
    ragged[:] = [numpy.zeros(2), numpy.zeros(3)]
    dataset = NumpyTupleDataset(ragged, numpy.array([5, 6]))
    picked = dataset.features[[1, 0], 0]
    assert picked.dtype == object and [len(a) for a in picked] == [3, 2]
    assert dataset.features[[], 1].shape == (0,)
