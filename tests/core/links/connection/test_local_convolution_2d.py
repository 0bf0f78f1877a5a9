import numpy

import kusari.links as L


def test_forward_and_backward(check_link_backward):
    link = L.LocalConvolution2D(2, 3, in_size=(4, 5), ksize=2, stride=(2, 1))
    assert link.W.shape == (3, 2, 4, 2, 2, 2) and link.b.shape == (3, 2, 4)
    link.b.array[...] = numpy.random.default_rng(3).standard_normal((3, 2, 4))
    x = numpy.random.default_rng(0).standard_normal((2, 2, 4, 5)).astype(numpy.float32)
    y = link(x)
    w = link.W.array
    expected = numpy.empty((2, 3, 2, 4))
    for i in range(2):
        for j in range(4):
            patch = x[:, :, 2 * i:2 * i + 2, j:j + 2]
            expected[:, :, i, j] = numpy.einsum("nckl,ockl->no", patch, w[:, i, j])
    numpy.testing.assert_allclose(y.array, expected + link.b.array, rtol=1e-4, atol=1e-5)
    check_link_backward(link, x)


def test_lazy():
    link = L.LocalConvolution2D(None, 2, ksize=3)
    assert link.W.array is None
    assert link(numpy.zeros((1, 4, 5, 5), numpy.float32)).shape == (1, 2, 3, 3)
    assert link.W.shape == (2, 3, 3, 4, 3, 3)
