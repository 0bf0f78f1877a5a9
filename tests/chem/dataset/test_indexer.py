import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.dataset.indexer import BaseFeatureIndexer, BaseIndexer  # noqa: E402


class _ListIndexer(BaseFeatureIndexer):
    """Examples are tuples in a list; no slice fast path, so every access goes example by example."""

    def features_length(self):
        return len(self.dataset[0])

    def extract_feature(self, i, j):
        return self.dataset[i][j]


DATA = [(numpy.array([0, 1]), 10), (numpy.array([2, 3]), 11), (numpy.array([4]), 12)]


def test_shape_and_single_feature_access():
    features = _ListIndexer(DATA)
    assert features.shape == (3, 2)
    assert features[1, 1] == 11
    numpy.testing.assert_array_equal(features[:, 1], [10, 11, 12])
    numpy.testing.assert_array_equal(features[[0, 1], 0], [[0, 1], [2, 3]])
    numpy.testing.assert_array_equal(features[numpy.array([True, False, True]), 1], [10, 12])


def test_ragged_features_become_object_arrays():
    column = _ListIndexer(DATA)[:, 0]
    assert column.dtype == object and column.shape == (3,)
    numpy.testing.assert_array_equal(column[2], [4])


def test_several_features_give_a_tuple():
    features = _ListIndexer(DATA)
    _, second = features[0:2]
    numpy.testing.assert_array_equal(second, [10, 11])
    assert features[(2,)][1] == 12
    assert len(features[0, [True, True]]) == 2
    empty = features[[], 1]
    assert isinstance(empty, numpy.ndarray) and empty.shape == (0,)


def test_errors():
    features = _ListIndexer(DATA)
    with pytest.raises(IndexError, match="feature index 2 is out of bounds for 2 features"):
        features[0, 2]
    with pytest.raises(IndexError, match="too many indices"):
        features[0, 0, 0]
    with pytest.raises(ValueError, match="the example mask has length 2 but there are 3 examples"):
        features[[True, False], 0]
    with pytest.raises(ValueError, match="the feature mask has length 1 but there are 2 features"):
        features[0, [True]]
    with pytest.raises(NotImplementedError):
        BaseIndexer()[0]
