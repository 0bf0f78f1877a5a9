import numpy
import pytest

import kusari.links as L


def test_forward_and_backward(check_link_backward):
    rng = numpy.random.default_rng(0)
    link = L.Bilinear(3, 2, 4)
    assert (link.W.shape, link.V1.shape, link.V2.shape, link.b.shape) == \
        ((3, 2, 4), (3, 4), (2, 4), (4,))
    link.b.array[...] = rng.standard_normal(4)
    e1 = rng.standard_normal((5, 3)).astype(numpy.float32)
    e2 = rng.standard_normal((5, 2)).astype(numpy.float32)
    expected = (numpy.einsum("ni,nj,ijk->nk", e1, e2, link.W.array) + e1 @ link.V1.array
                + e2 @ link.V2.array + link.b.array)
    numpy.testing.assert_allclose(link(e1, e2).array, expected, rtol=1e-5, atol=1e-6)
    check_link_backward(link, (e1, e2), numpy.float64)


def test_nobias_and_initial_bias():
    link = L.Bilinear(2, 2, 1, nobias=True)
    assert [n for n, _ in link.namedparams()] == ["/W"]
    link = L.Bilinear(2, 3, 1, initial_bias=(1.0, 2.0, 3.0))
    numpy.testing.assert_array_equal(link.V2.array, 2.0)
    numpy.testing.assert_array_equal(link.b.array, 3.0)
    with pytest.raises(ValueError, match="Bilinear.*initial_bias"):
        L.Bilinear(2, 2, 1, initial_bias=(1.0, 2.0))
