import numpy

import kusari
import kusari.links as L


def _np_step(link, c, h, x, sigmoid):
    z = x @ link.upward.W.array.T + link.upward.b.array + h @ link.lateral.W.array.T
    a, i, f, o = (z.reshape(len(x), -1, 4)[..., k] for k in range(4))
    c = numpy.tanh(a) * sigmoid(i) + sigmoid(f) * c
    return c, sigmoid(o) * numpy.tanh(c)


def test_inference_is_plain_lstm_and_training_keeps_old_values(sigmoid):
    link = L.StatefulZoneoutLSTM(3, 4, c_ratio=0.3, h_ratio=0.6)
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((5, 3)).astype(numpy.float32)
    with kusari.using_config("train", False):
        h1 = link(x).array
        h2 = link(x).array
    c, h = _np_step(link, numpy.zeros((5, 4)), numpy.zeros((5, 4)), x, sigmoid)
    numpy.testing.assert_allclose(h1, h, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(h2, _np_step(link, c, h, x, sigmoid)[1], rtol=1e-5, atol=1e-6)
    link.reset_state()
    with kusari.using_config("train", True):
        link(x)
        c_prev, prev = link.c.array.copy(), link.h.array.copy()
        new = link(x).array
    _, candidate = _np_step(link, c_prev, prev, x, sigmoid)
    kept = numpy.isclose(new, prev)
    fresh = numpy.isclose(new, candidate, rtol=1e-5, atol=1e-6)
    assert (kept | fresh).all() and kept.any() and fresh.any()
