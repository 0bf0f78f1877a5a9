"""Scalers and the red-blue color map."""
import numpy
from kusari.chem.saliency.visualizer import (
    abs_max_scaler,
    min_max_scaler,
    normalize_scaler,
    red_blue_cmap,
)


def test_red_blue_cmap():
    assert red_blue_cmap(1.0) == (1.0, 0.0, 0.0)
    assert red_blue_cmap(0.25) == (1.0, 0.75, 0.75)
    assert red_blue_cmap(0.0) == (1.0, 1.0, 1.0)
    assert red_blue_cmap(numpy.float32(-0.5)) == (0.5, 0.5, 1.0)


def test_scalers():
    s = numpy.array([2.0, -4.0, 1.0], numpy.float32)
    numpy.testing.assert_array_equal(abs_max_scaler(s), [0.5, -1.0, 0.25])
    numpy.testing.assert_allclose(min_max_scaler(s), [1.0, 0.0, 5 / 6], rtol=1e-6)
    numpy.testing.assert_allclose(normalize_scaler(s), s / 7)
    assert abs_max_scaler(s).dtype == numpy.float32
    zeros = numpy.zeros(3, numpy.float32)
    for scaler in (abs_max_scaler, min_max_scaler, normalize_scaler):
        numpy.testing.assert_array_equal(scaler(zeros), zeros)


def test_normalize_scaler_per_axis_leaves_zero_rows():
    s = numpy.array([[1.0, 3.0], [0.0, 0.0]], numpy.float32)
    numpy.testing.assert_array_equal(normalize_scaler(s, axis=1), [[0.25, 0.75], [0.0, 0.0]])
