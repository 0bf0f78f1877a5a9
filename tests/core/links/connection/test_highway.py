import numpy

import kusari.functions as F
import kusari.links as L


def test_forward_and_backward(sigmoid, check_link_backward):
    link = L.Highway(3)
    numpy.testing.assert_array_equal(link.transform.b.array, -1)
    x = numpy.random.default_rng(0).standard_normal((4, 3)).astype(numpy.float32)
    h = numpy.maximum(x @ link.plain.W.array.T + link.plain.b.array, 0)
    t = sigmoid(x @ link.transform.W.array.T + link.transform.b.array)
    numpy.testing.assert_allclose(link(x).array, h * t + x * (1 - t), rtol=1e-5, atol=1e-6)
    link.activate = F.tanh  # smooth, so the numerical check does not straddle a kink
    check_link_backward(link, x, numpy.float64)
