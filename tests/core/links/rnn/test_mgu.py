import numpy

import kusari.links as L


def _np_mgu(m, h, x, sigmoid):
    f = sigmoid(numpy.concatenate([h, x], 1) @ m.W_f.W.array.T + m.W_f.b.array)
    ht = numpy.tanh(numpy.concatenate([f * h, x], 1) @ m.W_h.W.array.T + m.W_h.b.array)
    return f * ht + (1 - f) * h


def test_stateless_and_stateful(sigmoid, check_link_backward):
    rng = numpy.random.default_rng(0)
    h = rng.standard_normal((3, 2)).astype(numpy.float32)
    x = rng.standard_normal((3, 4)).astype(numpy.float32)
    link = L.StatelessMGU(4, 2)
    assert link.W_f.W.shape == (2, 6)
    # Chainer's parameter names, so its .npz files load
    assert sorted(name for name, _ in link.namedparams()) == ["/W_f/W", "/W_f/b", "/W_h/W", "/W_h/b"]
    numpy.testing.assert_allclose(link(h, x).array, _np_mgu(link, h, x, sigmoid), rtol=1e-5, atol=1e-6)
    check_link_backward(link, (h, x), numpy.float64)
    s = L.StatefulMGU(4, 2)
    h1 = s(x)
    numpy.testing.assert_allclose(h1.array, _np_mgu(s, numpy.zeros((3, 2)), x, sigmoid), rtol=1e-5, atol=1e-6)
    h2 = s(x)
    numpy.testing.assert_allclose(h2.array, _np_mgu(s, h1.array, x, sigmoid), rtol=1e-5, atol=1e-6)
