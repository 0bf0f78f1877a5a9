import numpy
import pytest

from kusari import serializers
from kusari.chem.links.scaler.max_abs_scaler import MaxAbsScaler

X = numpy.array([[1.0, -4.0, 0.0], [-2.0, 2.0, 0.0]], numpy.float32)


@pytest.mark.parametrize("indices", [None, [1]])
def test_transform_and_inverse(indices):
    scaler = MaxAbsScaler().fit(X, indices=indices)
    y = scaler.transform(X)
    assert y.dtype == numpy.float32
    # column 0 / 2, column 1 / 4, column 2 is all zero and stays
    expected = numpy.array([[0.5, -1.0, 0.0], [-1.0, 0.5, 0.0]])
    scaled = range(3) if indices is None else indices
    for j in range(3):
        numpy.testing.assert_allclose(y[:, j], expected[:, j] if j in scaled else X[:, j])
    numpy.testing.assert_allclose(scaler.inverse_transform(y), X)


def test_nan_is_ignored_when_fitting():
    scaler = MaxAbsScaler().fit(numpy.array([[-3.0], [numpy.nan], [2.0]], numpy.float32))
    numpy.testing.assert_array_equal(scaler.max_abs, [3.0])


def test_transform_before_fit():
    with pytest.raises(AttributeError, match="MaxAbsScaler.inverse_transform: max_abs is None"):
        MaxAbsScaler().inverse_transform(X)


def test_save_load_round_trip(tmp_path):
    scaler = MaxAbsScaler().fit(X, indices=[0, 1])
    path = str(tmp_path / "scaler.npz")
    serializers.save_npz(path, scaler)
    loaded = MaxAbsScaler()
    serializers.load_npz(path, loaded)
    numpy.testing.assert_array_equal(loaded.indices, [0, 1])
    numpy.testing.assert_array_equal(loaded.transform(X), scaler.transform(X))
