import numpy
import pytest

from kusari import serializers
from kusari.chem.links.scaler.min_max_scaler import MinMaxScaler

X = numpy.array([[0.0, -2.0, 5.0], [1.0, 2.0, 5.0], [4.0, 0.0, 5.0]], numpy.float32)


@pytest.mark.parametrize("indices", [None, [0, 2], [1]])
def test_transform_and_inverse(indices):
    scaler = MinMaxScaler().fit(X, indices=indices)
    y = scaler.transform(X)
    assert y.dtype == numpy.float32
    # column 0: (x - 0) / 4, column 1: (x + 2) / 4, column 2 is constant: only shifted
    expected = numpy.array([[0.0, 0.0, 0.0], [0.25, 1.0, 0.0], [1.0, 0.5, 0.0]])
    scaled = range(3) if indices is None else indices
    for j in range(3):
        numpy.testing.assert_allclose(y[:, j], expected[:, j] if j in scaled else X[:, j])
    numpy.testing.assert_allclose(scaler.inverse_transform(y), X)


def test_nan_is_ignored_when_fitting():
    scaler = MinMaxScaler().fit(numpy.array([1.0, numpy.nan, 3.0], numpy.float32))
    numpy.testing.assert_array_equal(scaler.min, [1.0])
    numpy.testing.assert_array_equal(scaler.max, [3.0])


def test_transform_before_fit():
    with pytest.raises(AttributeError, match="MinMaxScaler.transform: min is None"):
        MinMaxScaler().transform(X)


def test_save_load_round_trip(tmp_path):
    scaler = MinMaxScaler().fit(X)
    path = str(tmp_path / "scaler.npz")
    serializers.save_npz(path, scaler)
    assert sorted(numpy.load(path, allow_pickle=True).files) == ["indices", "max", "min"]
    loaded = MinMaxScaler()
    serializers.load_npz(path, loaded)
    assert loaded.indices is None
    numpy.testing.assert_array_equal(loaded.transform(X), scaler.transform(X))
