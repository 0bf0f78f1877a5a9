import numpy
import pytest

import kusari.links as L


def test_owned_scale_with_bias(check_link_backward):
    link = L.Scale(axis=1, W_shape=(3,), bias_term=True)
    numpy.testing.assert_array_equal(link.W.array, 1)
    link.W.array[...] = [1, 2, 3]
    link.bias.b.array[...] = [0.5, 0, -1]
    x = numpy.random.default_rng(0).standard_normal((2, 3, 4)).astype(numpy.float32)
    expected = x * numpy.array([1, 2, 3]).reshape(1, 3, 1) + numpy.array([0.5, 0, -1]).reshape(1, 3, 1)
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-6)
    assert sorted(n for n, _ in link.namedparams()) == ["/W", "/bias/b"]
    check_link_backward(link, x, numpy.float64)


def test_given_scale_and_errors():
    link = L.Scale(axis=1)
    W = numpy.array([2.0, 3.0], numpy.float32)
    numpy.testing.assert_array_equal(link(numpy.ones((1, 2), numpy.float32), W).array, [[2, 3]])
    with pytest.raises(ValueError, match="Scale.*bias_term"):
        L.Scale(bias_term=True)
    with pytest.raises(TypeError, match="Scale"):
        link(numpy.ones((1, 2), numpy.float32))
