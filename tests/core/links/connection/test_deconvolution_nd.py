import numpy
import pytest

import kusari.links as L


@pytest.mark.parametrize("cls, nd", [(L.Deconvolution1D, 1), (L.Deconvolution3D, 3)])
def test_fixed_dim_forward(cls, nd, deconv_ref):
    link = cls(2, 3, 3, stride=2, pad=1, initial_bias=0.25)
    assert link.W.shape == (2, 3) + (3,) * nd
    x = numpy.random.default_rng(0).standard_normal((2, 2) + (3,) * nd).astype(numpy.float32)
    y = link(x)
    numpy.testing.assert_allclose(y.array, deconv_ref(x, link.W.array, link.b.array, 2, 1),
                                  rtol=1e-4, atol=1e-5)


def test_lazy_and_outsize(deconv_ref):
    link = L.DeconvolutionND(1, 4, 2, stride=2, outsize=(7,), nobias=True)
    x = numpy.random.default_rng(1).standard_normal((1, 3, 3)).astype(numpy.float32)
    y = link(x)
    assert link.W.shape == (3, 4, 2) and y.shape == (1, 4, 7)
    # positions the kernel never reaches are zero when outsize exceeds the natural size
    numpy.testing.assert_allclose(y.array[..., :6], deconv_ref(x, link.W.array, None, 2, 0),
                                  rtol=1e-4, atol=1e-5)
    numpy.testing.assert_array_equal(y.array[..., 6], 0)


def test_backward(check_link_backward):
    link = L.DeconvolutionND(2, 2, 2, 2, stride=2, groups=2)
    assert link.W.shape == (2, 1, 2, 2)
    check_link_backward(link, numpy.random.default_rng(2).standard_normal((1, 2, 2, 3)),
                        numpy.float64)
