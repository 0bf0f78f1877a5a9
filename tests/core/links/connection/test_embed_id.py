import numpy
import pytest

import kusari.links as L


def test_lookup_ignore_label_and_default_init():
    numpy.random.seed(0)
    link = L.EmbedID(300, 40, ignore_label=-1)
    assert link.W.shape == (300, 40) and abs(link.W.array.std() - 1) < 0.02  # Normal(1.0)
    x = numpy.array([[0, 5], [-1, 299]], numpy.int32)
    y = link(x)
    assert y.shape == (2, 2, 40) and y.dtype == numpy.float32
    numpy.testing.assert_array_equal(y.array[0, 1], link.W.array[5])
    numpy.testing.assert_array_equal(y.array[1, 0], 0)


def test_backward_to_W(check_link_backward):
    link = L.EmbedID(4, 3, initialW=numpy.arange(12, dtype=numpy.float32).reshape(4, 3))
    check_link_backward(link, numpy.array([1, 3, 1], numpy.int32), numpy.float64)


def test_out_of_range_id_raises():
    with pytest.raises((ValueError, IndexError)):
        L.EmbedID(3, 2)(numpy.array([3], numpy.int32))
