import numpy

import kusari.links as L


def test_loss_against_numpy():
    rng = numpy.random.default_rng(0)
    link = L.BlackOut(3, [1, 2, 3, 4, 5], 2)
    assert link.W.shape == (5, 3)
    x = rng.standard_normal((2, 3)).astype(numpy.float32)
    t = numpy.array([1, 4], numpy.int32)
    link.sample_data = numpy.array([[0, 2], [3, 0]], numpy.int32)
    loss = link(x, t)
    w = link.W.array
    total = 0.0
    for xi, ti, neg in zip(x, t, link.sample_data):
        scores = w[numpy.concatenate([[ti], neg])] @ xi
        p = numpy.exp(scores - scores.max())
        p /= p.sum()
        total += -(numpy.log(p[0]) + numpy.log(1 - p[1:]).sum())
    numpy.testing.assert_allclose(loss.array, total / 2, rtol=1e-5)


def test_sampled_negatives_shape():
    link = L.BlackOut(3, [1, 1], 4)
    assert link(numpy.ones((2, 3), numpy.float32), numpy.array([0, 1], numpy.int32)).shape == ()
