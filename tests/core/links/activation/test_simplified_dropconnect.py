import numpy

import kusari.links as L


def test_mask_and_eval():
    link = L.SimplifiedDropconnect(3, 2, ratio=0.5)
    x = numpy.random.default_rng(0).standard_normal((4, 3)).astype(numpy.float32)
    W, b = link.W.array, link.b.array
    numpy.testing.assert_allclose(link(x, train=False).array, x @ W.T + b, rtol=1e-5)
    mask = numpy.random.default_rng(1).integers(0, 2, (4, 2, 3)).astype(numpy.float32)
    expected = numpy.einsum("ni,noi->no", x, W * mask * 2) + b
    numpy.testing.assert_allclose(link(x, mask=mask).array, expected, rtol=1e-5)


def test_lazy_and_backward(check_link_backward):
    link = L.SimplifiedDropconnect(None, 2)
    x = numpy.random.default_rng(2).standard_normal((3, 2, 2)).astype(numpy.float32)
    mask = numpy.ones((3, 2, 4), numpy.float32)
    assert link(x, mask=mask).shape == (3, 2) and link.W.shape == (2, 4)
    link.ratio = 0.0
    check_link_backward(link, x, numpy.float64)
