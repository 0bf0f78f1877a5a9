import numpy
import pytest

import kusari.links as L


def test_forward_lazy_and_backward(conv_ref, check_link_backward):
    link = L.MLPConvolution2D((3, 4, 2), 3, pad=1)  # in_channels deferred
    x = numpy.random.default_rng(0).standard_normal((1, 2, 4, 4)).astype(numpy.float32)
    y = link(x)
    assert len(link) == 3 and [l.W.shape for l in link] == [(3, 2, 3, 3), (4, 3, 1, 1), (2, 4, 1, 1)]
    h = numpy.maximum(conv_ref(x, link[0].W.array, link[0].b.array, 1, 1), 0)
    h = numpy.maximum(conv_ref(h, link[1].W.array, link[1].b.array, 1, 0), 0)
    h = conv_ref(h, link[2].W.array, link[2].b.array, 1, 0)  # no activation after the last
    numpy.testing.assert_allclose(y.array, h, rtol=1e-4, atol=1e-5)
    link.activation = lambda v: v * 0.5
    check_link_backward(link, x[:, :, :3, :3])


def test_empty_out_channels():
    with pytest.raises(ValueError, match="MLPConvolution2D.*out_channels"):
        L.MLPConvolution2D(2, (), 3)
