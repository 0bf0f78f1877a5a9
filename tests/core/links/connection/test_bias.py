import numpy
import pytest

import kusari.links as L


def test_owned_bias(check_link_backward):
    link = L.Bias(axis=1, shape=(3, 2))
    numpy.testing.assert_array_equal(link.b.array, 0)
    link.b.array[...] = numpy.arange(6).reshape(3, 2)
    x = numpy.ones((2, 3, 2, 4), numpy.float32)
    numpy.testing.assert_array_equal(link(x).array, x + numpy.arange(6).reshape(1, 3, 2, 1))
    check_link_backward(link, x, numpy.float64)


def test_given_bias_and_errors():
    link = L.Bias(axis=0)
    assert list(link.params()) == []
    b = numpy.arange(2, dtype=numpy.float32)
    numpy.testing.assert_array_equal(link(numpy.zeros((2, 3), numpy.float32), b).array,
                                     numpy.repeat(b[:, None], 3, 1))
    with pytest.raises(TypeError, match="Bias.*1 inputs"):
        link(numpy.zeros((2, 3), numpy.float32))
