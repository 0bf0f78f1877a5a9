import numpy
import pytest

import kusari.links as L


@pytest.mark.parametrize("cls, nd", [(L.Convolution1D, 1), (L.Convolution3D, 3)])
def test_fixed_dim_forward(cls, nd, conv_ref):
    link = cls(2, 3, 2, stride=2, pad=1)
    assert link.W.shape == (3, 2) + (2,) * nd
    link.b.array[...] = [1, 2, 3]
    x = numpy.random.default_rng(0).standard_normal((2, 2) + (5,) * nd).astype(numpy.float32)
    y = link(x)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, conv_ref(x, link.W.array, link.b.array, 2, 1),
                                  rtol=1e-4, atol=1e-5)


def test_nd_lazy_groups_dilate(conv_ref):
    link = L.ConvolutionND(2, 4, (3, 2), dilate=2, groups=2, nobias=True)  # in_channels deferred
    assert link.W.array is None and link.b is None
    x = numpy.random.default_rng(1).standard_normal((1, 6, 7, 6)).astype(numpy.float32)
    y = link(x)
    assert link.W.shape == (4, 3, 3, 2)
    w = link.W.array
    expected = numpy.concatenate([conv_ref(x[:, :3], w[:2], None, 1, 0, 2),
                                  conv_ref(x[:, 3:], w[2:], None, 1, 0, 2)], axis=1)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)


def test_bad_groups_and_ndim():
    with pytest.raises(ValueError, match="ConvolutionND.*out_channels=3.*groups=2"):
        L.ConvolutionND(1, 4, 3, 1, groups=2)
    with pytest.raises(ValueError, match="Convolution1D.*3 dimensions.*x.shape=\\(2, 2\\)"):
        L.Convolution1D(None, 3, 1)(numpy.zeros((2, 2), numpy.float32))


def test_backward(check_link_backward):
    link = L.Convolution1D(2, 2, 3, pad=1)
    check_link_backward(link, numpy.random.default_rng(2).standard_normal((2, 2, 4)), numpy.float64)
