import numpy

import kusari.links as L


def test_forward_and_backward(check_link_backward):
    link = L.PReLU((3,))
    numpy.testing.assert_array_equal(link.W.array, 0.25)
    link.W.array[...] = [0.1, 0.2, 0.3]
    x = numpy.array([[-1, 2, -3], [4, -5, 6]], numpy.float32)
    numpy.testing.assert_allclose(link(x).array, [[-0.1, 2, -0.9], [4, -1, 6]], rtol=1e-6)
    check_link_backward(link, x + 0.5, numpy.float64)
