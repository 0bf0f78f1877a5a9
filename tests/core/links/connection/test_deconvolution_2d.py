import numpy

import kusari.links as L


def test_forward_and_lazy(deconv_ref):
    link = L.Deconvolution2D(None, 2, (2, 3), stride=(2, 1), pad=(0, 1))
    x = numpy.random.default_rng(0).standard_normal((2, 3, 3, 4)).astype(numpy.float32)
    y = link(x)
    assert link.W.shape == (3, 2, 2, 3) and y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, deconv_ref(x, link.W.array, link.b.array, (2, 1), (0, 1)),
                                  rtol=1e-4, atol=1e-5)


def test_backward(check_link_backward):
    link = L.Deconvolution2D(2, 2, 3, stride=2, pad=1)
    check_link_backward(link, numpy.random.default_rng(1).standard_normal((1, 2, 2, 2)))
