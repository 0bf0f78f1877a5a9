import numpy
import pytest

import kusari.links as L


def _lin(link, v):
    return v @ link.W.array.T + link.b.array


def _np_gru(g, h, x, sigmoid):
    r = sigmoid(_lin(g.W_r, x) + _lin(g.U_r, h))
    z = sigmoid(_lin(g.W_z, x) + _lin(g.U_z, h))
    h_bar = numpy.tanh(_lin(g.W, x) + _lin(g.U, r * h))
    return z * h_bar + (1 - z) * h


def test_stateless(sigmoid, check_link_backward):
    link = L.StatelessGRU(3, 2, bias_init=0.1)
    rng = numpy.random.default_rng(0)
    h = rng.standard_normal((4, 2)).astype(numpy.float32)
    x = rng.standard_normal((4, 3)).astype(numpy.float32)
    numpy.testing.assert_allclose(link(h, x).array, _np_gru(link, h, x, sigmoid), rtol=1e-5, atol=1e-6)
    check_link_backward(link, (h, x), numpy.float64)


@pytest.mark.parametrize("cls", [L.StatefulGRU, L.GRU])
def test_stateful(cls, sigmoid):
    link = cls(3, 2)
    rng = numpy.random.default_rng(1)
    x1, x2 = (rng.standard_normal((4, 3)).astype(numpy.float32) for _ in range(2))
    h1 = link(x1)
    z = sigmoid(_lin(link.W_z, x1))
    numpy.testing.assert_allclose(h1.array, z * numpy.tanh(_lin(link.W, x1)), rtol=1e-5, atol=1e-6)
    h2 = link(x2)
    numpy.testing.assert_allclose(h2.array, _np_gru(link, h1.array, x2, sigmoid), rtol=1e-5, atol=1e-6)
    link.reset_state()
    assert link.h is None


def test_gru_is_stateful_only():
    link = L.GRU(3, 2)
    with pytest.raises(TypeError, match="GRU.*StatelessGRU"):
        link(numpy.zeros((1, 2), numpy.float32), numpy.zeros((1, 3), numpy.float32))
