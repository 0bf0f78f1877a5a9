import numpy

import kusari.links as L


def test_forward_lazy_and_backward(sigmoid, check_link_backward):
    link = L.Swish(None, beta_init=2.0)
    x = numpy.random.default_rng(0).standard_normal((2, 3, 4)).astype(numpy.float32)
    y = link(x)
    assert link.beta.shape == (3, 4)
    numpy.testing.assert_allclose(y.array, x * sigmoid(2 * x), rtol=1e-5)
    check_link_backward(L.Swish((3,)), x, numpy.float64)
