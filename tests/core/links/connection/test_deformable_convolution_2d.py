import numpy

import kusari.links as L


def test_zero_offsets_equal_convolution(conv_ref, check_link_backward):
    link = L.DeformableConvolution2D(2, 3, 3, pad=1, offset_initialW=0, offset_initial_bias=0)
    assert link.offset_conv.W.shape == (18, 2, 3, 3)
    assert link.deform_conv.W.shape == (3, 2, 3, 3)
    x = numpy.random.default_rng(0).standard_normal((1, 2, 4, 4)).astype(numpy.float32)
    y = link(x)
    numpy.testing.assert_allclose(y.array, conv_ref(x, link.deform_conv.W.array,
                                                     link.deform_conv.b.array, 1, 1),
                                  rtol=1e-4, atol=1e-5)


def test_backward_with_offsets(check_link_backward):
    link = L.DeformableConvolution2D(2, 2, 2, offset_initialW=0, offset_initial_bias=0.3)
    check_link_backward(link, numpy.random.default_rng(1).standard_normal((1, 2, 3, 3)),
                        numpy.float64)
