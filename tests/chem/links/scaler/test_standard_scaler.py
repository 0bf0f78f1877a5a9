import logging

import numpy
import pytest

import kusari
from kusari import serializers
from kusari.chem.links.scaler.standard_scaler import StandardScaler

# each column is 4 equally spaced values: standardized, they are (-3, -1, 1, 3) / sqrt(5)
X = numpy.array([[0.1, 10.0], [0.2, 20.0], [0.3, 30.0], [0.4, 40.0]], numpy.float32)
Z = numpy.array([-3, -1, 1, 3], numpy.float64)[:, None] / numpy.sqrt(5)


@pytest.mark.parametrize("indices", [None, [0], [1], (0, 1)])
def test_transform_and_inverse(indices):
    scaler = StandardScaler().fit(X, indices=indices)
    y = scaler.transform(X)
    assert y.dtype == numpy.float32 and scaler.mean.dtype == numpy.float32
    scaled = [0, 1] if indices is None else list(indices)
    for j in range(2):
        expected = Z[:, 0] if j in scaled else X[:, j]
        numpy.testing.assert_allclose(y[:, j], expected, rtol=1e-5)
    numpy.testing.assert_allclose(scaler.inverse_transform(y), X, rtol=1e-6)


def test_variable_in_variable_out_with_gradient():
    x = kusari.Variable(X.copy())
    y = StandardScaler().fit_transform(x)
    assert isinstance(y, kusari.Variable)
    kusari.functions.sum(y).backward()
    numpy.testing.assert_allclose(x.grad, numpy.broadcast_to(1 / X.std(axis=0), X.shape),
                                  rtol=1e-5)


def test_call_transforms():
    scaler = StandardScaler().fit(X)
    numpy.testing.assert_array_equal(scaler(X), scaler.transform(X))


@pytest.mark.parametrize("axis", [1, 2])
def test_feature_axis_of_3d_input(axis):
    x = numpy.broadcast_to(X[:, :, None] if axis == 1 else X[:, None, :],
                           (4, 2, 3) if axis == 1 else (4, 3, 2))
    scaler = StandardScaler().fit(x, axis=axis)
    numpy.testing.assert_allclose(scaler.mean, X.mean(axis=0), rtol=1e-6)
    y = scaler.fit_transform(x, axis=axis)
    assert y.shape == x.shape
    numpy.testing.assert_allclose(numpy.take(y, 0, axis=3 - axis), numpy.hstack([Z, Z]),
                                  rtol=1e-5)


def test_one_dimensional_input_is_one_feature():
    y = StandardScaler().fit_transform(X[:, 1])
    assert y.shape == (4, 1)
    numpy.testing.assert_allclose(y, Z, rtol=1e-5)


def test_nan_is_ignored_when_fitting():
    x = numpy.array([[1.0], [numpy.nan], [3.0]], numpy.float32)
    scaler = StandardScaler().fit(x)
    numpy.testing.assert_allclose(scaler.mean, [2.0])
    numpy.testing.assert_allclose(scaler.std, [1.0])
    y = scaler.transform(x)
    numpy.testing.assert_allclose(y[[0, 2]], [[-1.0], [1.0]])
    assert numpy.isnan(y[1, 0])


def test_zero_std_column_is_only_shifted(caplog):
    x = numpy.array([[1.0, 2.0], [1.0, 4.0]], numpy.float32)
    with caplog.at_level(logging.WARNING):
        y = StandardScaler().fit_transform(x)
    assert "std was 0 at indices [0]" in caplog.text
    numpy.testing.assert_allclose(y, [[0.0, -1.0], [0.0, 1.0]])


def test_transform_before_fit():
    with pytest.raises(AttributeError, match="StandardScaler.transform: mean is None"):
        StandardScaler().transform(X)
    with pytest.raises(AttributeError, match="StandardScaler.inverse_transform: mean is None"):
        StandardScaler().inverse_transform(X)


def test_width_mismatch():
    scaler = StandardScaler().fit(X)
    with pytest.raises(ValueError, match="fitted on 2 features but x has 3"):
        scaler.transform(numpy.zeros((1, 3), numpy.float32))


@pytest.mark.parametrize("indices", [None, [1]])
def test_save_load_round_trip(tmp_path, indices):
    scaler = StandardScaler().fit(X, indices=indices)
    path = str(tmp_path / "scaler.npz")
    serializers.save_npz(path, scaler)
    loaded = StandardScaler()
    serializers.load_npz(path, loaded)
    if indices is None:
        assert loaded.indices is None
    else:
        numpy.testing.assert_array_equal(loaded.indices, indices)
    numpy.testing.assert_array_equal(loaded.mean, scaler.mean)
    numpy.testing.assert_array_equal(loaded.std, scaler.std)
    numpy.testing.assert_array_equal(loaded.transform(X), scaler.transform(X))


def test_strict_load_of_a_chainer_layout_file(tmp_path):
    # Chainer saves a None persistent as numpy.asarray(None); the keys are the persistents' names
    path = str(tmp_path / "chainer.npz")
    numpy.savez(path, indices=numpy.asarray(None), mean=numpy.float32([0.25, 25.0]),
                std=numpy.float32([0.5, 5.0]))
    loaded = StandardScaler()
    serializers.load_npz(path, loaded, strict=True)
    assert loaded.indices is None
    numpy.testing.assert_allclose(loaded.transform(X)[0], [-0.3, -3.0], rtol=1e-6)
