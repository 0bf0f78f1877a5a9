import numpy
import pytest

import kusari.links as L


def test_forward_with_array_initializers(check_link_backward):
    rng = numpy.random.default_rng(0)
    W = rng.standard_normal((3, 2, 4)).astype(numpy.float32)  # (out, pool, in), Chainer's layout
    b = rng.standard_normal((3, 2)).astype(numpy.float32)
    link = L.Maxout(4, 3, 2, initialW=W, initial_bias=b)
    x = rng.standard_normal((5, 4)).astype(numpy.float32)
    expected = (numpy.einsum("ni,oki->nok", x, W) + b).max(axis=2)
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-5, atol=1e-6)
    check_link_backward(link, x, numpy.float64)


def test_no_bias_and_bad_shapes():
    assert L.Maxout(2, 3, 4, initial_bias=None).linear.b is None
    with pytest.raises(ValueError, match=r"Maxout: initialW must have shape \(out_size, pool_size, in_size\)="
                                         r"\(3, 4, 2\), got \(2, 3, 4\)"):
        L.Maxout(2, 3, 4, initialW=numpy.zeros((2, 3, 4), numpy.float32))
