import numpy

import kusari.links as L


def test_forward_lazy_and_backward(conv_ref, check_link_backward):
    link = L.DepthwiseConvolution2D(None, 2, 3, pad=1, initial_bias=initializer_bias())
    x = numpy.random.default_rng(0).standard_normal((2, 3, 4, 4)).astype(numpy.float32)
    y = link(x)
    assert link.W.shape == (2, 3, 3, 3) and link.b.shape == (6,)
    # output channel c * multiplier + m is channel c filtered by W[m, c]
    w = link.W.array
    for c in range(3):
        for m in range(2):
            ref = conv_ref(x[:, c:c + 1], w[m:m + 1, c:c + 1], None, 1, 1)[:, 0]
            numpy.testing.assert_allclose(y.array[:, 2 * c + m], ref + link.b.array[2 * c + m],
                                          rtol=1e-4, atol=1e-5)
    check_link_backward(link, x[:1, :, :3, :3])


def initializer_bias():
    return numpy.arange(6, dtype=numpy.float32)
