import numpy

import kusari.links as L


def test_forward_and_backward(conv_ref, check_link_backward):
    link = L.DilatedConvolution2D(2, 3, 3, pad=2, dilate=2, initial_bias=1.0)
    x = numpy.random.default_rng(0).standard_normal((1, 2, 5, 5)).astype(numpy.float32)
    y = link(x)
    assert y.shape == (1, 3, 5, 5)
    numpy.testing.assert_allclose(y.array, conv_ref(x, link.W.array, link.b.array, 1, 2, 2),
                                  rtol=1e-4, atol=1e-5)
    check_link_backward(link, x[:, :, :4, :4])
