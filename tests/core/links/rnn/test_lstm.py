import numpy
import pytest

import kusari.links as L


def _np_lstm(c, h, x, link, sigmoid):
    z = x @ link.upward.W.array.T + link.upward.b.array
    if h is not None:
        z = z + h @ link.lateral.W.array.T
    z = z.reshape(len(x), -1, 4)
    a, i, f, o = (z[..., k] for k in range(4))
    c = numpy.tanh(a) * sigmoid(i) + sigmoid(f) * c
    return c, sigmoid(o) * numpy.tanh(c)


def test_bias_layout_and_shapes():
    link = L.LSTM(3, 2, forget_bias_init=2.5, bias_init=0.5)
    assert link.upward.W.shape == (8, 3) and link.lateral.W.shape == (8, 2) and link.lateral.b is None
    numpy.testing.assert_array_equal(link.upward.b.array.reshape(2, 4), [[0.5, 0.5, 2.5, 0.5]] * 2)
    numpy.testing.assert_array_equal(L.LSTM(3, 2).upward.b.array.reshape(2, 4)[:, 2], 1)


def test_stateful_sequence_and_shrinking_batch(sigmoid):
    link = L.LSTM(3, 2)
    rng = numpy.random.default_rng(0)
    xs = [rng.standard_normal((b, 3)).astype(numpy.float32) for b in (3, 3, 2)]
    c, h = numpy.zeros((3, 2)), None
    for x in xs:
        y = link(x)
        b = len(x)
        c_new, h_new = _np_lstm(c[:b], None if h is None else h[:b], x, link, sigmoid)
        c = numpy.concatenate([c_new, c[b:]])
        h = h_new if h is None else numpy.concatenate([h_new, h[b:]])
        numpy.testing.assert_allclose(y.array, h_new, rtol=1e-5, atol=1e-6)
    assert link.h.shape == (3, 2)
    numpy.testing.assert_allclose(link.c.array, c, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="LSTM.*batch"):
        link(numpy.zeros((4, 3), numpy.float32))
    link.reset_state()
    assert link.c is None and link.h is None


def test_lazy_in_size_and_backward():
    link = L.LSTM(2)
    x = numpy.random.default_rng(1).standard_normal((2, 5)).astype(numpy.float32)
    link(x)
    assert link.upward.W.shape == (8, 5)

    def step(v):
        link.set_state(numpy.full((2, 2), 0.3), numpy.full((2, 2), -0.2))
        return link(v)

    for p in link.params():
        p.array = p.array.astype(numpy.float64)
    from kusari import gradient_check
    gy = numpy.random.default_rng(2).standard_normal((2, 2))
    gradient_check.check_backward(step, x.astype(numpy.float64), gy, params=list(link.params()),
                                  eps=1e-4, atol=1e-4, rtol=1e-3)


def test_stateless(sigmoid, check_link_backward):
    link = L.StatelessLSTM(3, 2)
    rng = numpy.random.default_rng(3)
    c = rng.standard_normal((4, 2)).astype(numpy.float32)
    h = rng.standard_normal((4, 2)).astype(numpy.float32)
    x = rng.standard_normal((4, 3)).astype(numpy.float32)
    c_new, h_new = link(c, h, x)
    ec, eh = _np_lstm(c, h, x, link, sigmoid)
    numpy.testing.assert_allclose(c_new.array, ec, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(h_new.array, eh, rtol=1e-5, atol=1e-6)
    c0, h0 = link(None, None, x)
    numpy.testing.assert_allclose(h0.array, _np_lstm(numpy.zeros((4, 2)), None, x, link, sigmoid)[1],
                                  rtol=1e-5, atol=1e-6)
    check_link_backward(link, (c, h, x), numpy.float64)
