import numpy

import kusari.links as L


def test_forward_against_branches(conv_ref):
    link = L.Inception(3, 2, 2, 3, 1, 2, 2, bias_init=0.1)
    x = numpy.random.default_rng(0).standard_normal((1, 3, 5, 5)).astype(numpy.float32)
    y = link(x)
    assert y.shape == (1, 2 + 3 + 2 + 2, 5, 5)

    def conv(l, v, pad=0):
        return conv_ref(v, l.W.array, l.b.array, 1, pad)

    relu = lambda v: numpy.maximum(v, 0)  # NOQA
    xp = numpy.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)], constant_values=-numpy.inf)
    pooled = numpy.max([xp[:, :, i:i + 5, j:j + 5] for i in range(3) for j in range(3)], axis=0)
    expected = relu(numpy.concatenate([
        conv(link.conv1, x), conv(link.conv3, relu(conv(link.proj3, x)), 1),
        conv(link.conv5, relu(conv(link.proj5, x)), 2), conv(link.projp, pooled)], axis=1))
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)
