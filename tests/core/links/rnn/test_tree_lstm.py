import numpy
import pytest

import kusari.links as L


def _lin(link, v):
    out = v @ link.W.array.T
    return out if link.b is None else out + link.b.array


def test_child_sum(sigmoid, check_link_backward):
    link = L.ChildSumTreeLSTM(3, 2)
    rng = numpy.random.default_rng(0)
    c1, c2, h1, h2 = (rng.standard_normal((4, 2)).astype(numpy.float32) for _ in range(4))
    x = rng.standard_normal((4, 3)).astype(numpy.float32)
    c, h = link(c1, c2, h1, h2, x)
    wx = _lin(link.W_x, x)
    aio = wx[:, :6] + _lin(link.W_h_aio, h1 + h2)
    a, i, o = aio[:, :2], aio[:, 2:4], aio[:, 4:]
    f1, f2 = (sigmoid(_lin(link.W_h_f, hk) + wx[:, 6:]) for hk in (h1, h2))
    ec = numpy.tanh(a) * sigmoid(i) + f1 * c1 + f2 * c2
    numpy.testing.assert_allclose(c.array, ec, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(h.array, sigmoid(o) * numpy.tanh(ec), rtol=1e-5, atol=1e-6)
    leaf_c, leaf_h = link(x)
    numpy.testing.assert_allclose(leaf_c.array, sigmoid(wx[:, 2:4]) * numpy.tanh(wx[:, :2]), rtol=1e-5)
    check_link_backward(link, (c1, c2, h1, h2, x), numpy.float64)
    with pytest.raises(ValueError, match="ChildSumTreeLSTM.*got 2"):
        link(c1, x)


def test_nary(sigmoid, check_link_backward):
    link = L.NaryTreeLSTM(3, 2, n_ary=2)
    assert link.W_x.W.shape == (10, 3) and link.W_h2.W.shape == (10, 2)
    rng = numpy.random.default_rng(1)
    c1, c2, h1, h2 = (rng.standard_normal((4, 2)).astype(numpy.float32) for _ in range(4))
    x = rng.standard_normal((4, 3)).astype(numpy.float32)
    c, h = link(c1, None, h1, None, x)
    z = _lin(link.W_x, x) + _lin(link.W_h1, h1)
    a, i, o, f1 = (z[:, 2 * k:2 * k + 2] for k in range(4))
    ec = numpy.tanh(a) * sigmoid(i) + sigmoid(f1) * c1
    numpy.testing.assert_allclose(c.array, ec, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(h.array, sigmoid(o) * numpy.tanh(ec), rtol=1e-5, atol=1e-6)
    check_link_backward(link, (c1, c2, h1, h2, x), numpy.float64)
    with pytest.raises(ValueError, match="NaryTreeLSTM.*5"):
        link(c1, h1, x)


@pytest.mark.parametrize("make,name", [(lambda: L.ChildSumTreeLSTM(3, 2), "ChildSumTreeLSTM"),
                                       (lambda: L.NaryTreeLSTM(3, 2, n_ary=1), "NaryTreeLSTM")])
def test_none_x_counts_as_zeros(make, name):
    link = make()
    link.W_x.b.array[...] = 0.5  # W_x's bias still counts for a None x, as in Chainer
    rng = numpy.random.default_rng(1)
    c1, h1 = (rng.standard_normal((4, 2)).astype(numpy.float32) for _ in range(2))
    c, h = link(c1, h1, None)
    c0, h0 = link(c1, h1, numpy.zeros((4, 3), numpy.float32))
    numpy.testing.assert_array_equal(c.array, c0.array)
    numpy.testing.assert_array_equal(h.array, h0.array)
    with pytest.raises(ValueError, match=f"{name}: x and every c and h are None"):
        link(None, None, None)
