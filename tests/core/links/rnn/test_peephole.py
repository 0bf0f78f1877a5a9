import numpy

import kusari.links as L


def _lin(link, v):
    out = v @ link.W.array.T
    return out if link.b is None else out + link.b.array


def test_two_steps_against_numpy(sigmoid):
    link = L.StatefulPeepholeLSTM(3, 2)
    rng = numpy.random.default_rng(0)
    c, h = numpy.zeros((2, 2)), None
    for _ in range(2):
        x = rng.standard_normal((2, 3)).astype(numpy.float32)
        y = link(x)
        z = _lin(link.upward, x) + (0 if h is None else _lin(link.lateral, h))
        a, i, f, o = (z.reshape(2, 2, 4)[..., k] for k in range(4))
        i = sigmoid(i + _lin(link.peep_i, c))
        f = sigmoid(f + _lin(link.peep_f, c))
        c = numpy.tanh(a) * i + f * c
        h = sigmoid(o + _lin(link.peep_o, c)) * numpy.tanh(c)
        numpy.testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
    link.reset_state()
    assert link.h is None and link.c is None
