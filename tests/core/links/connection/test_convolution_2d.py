import numpy
import pytest

import kusari.links as L


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_forward(dtype, conv_ref):
    link = L.Convolution2D(3, 4, ksize=(3, 2), stride=(1, 2), pad=1, initial_bias=0.5)
    link.W.array = link.W.array.astype(dtype)
    link.b.array = link.b.array.astype(dtype)
    x = numpy.random.default_rng(0).standard_normal((2, 3, 5, 6)).astype(dtype)
    y = link(x)
    assert y.dtype == dtype and link.W.shape == (4, 3, 3, 2)
    numpy.testing.assert_allclose(y.array, conv_ref(x, link.W.array, link.b.array, (1, 2), 1),
                                  rtol=1e-4, atol=1e-5)


def test_lazy_two_argument_form():
    link = L.Convolution2D(5, 3)
    assert link.W.array is None
    y = link(numpy.zeros((1, 2, 4, 4), numpy.float32))
    assert link.W.shape == (5, 2, 3, 3) and y.shape == (1, 5, 2, 2)


def test_backward(check_link_backward):
    link = L.Convolution2D(2, 3, 2, stride=2, dilate=1, groups=1)
    check_link_backward(link, numpy.random.default_rng(1).standard_normal((2, 2, 4, 4)))
