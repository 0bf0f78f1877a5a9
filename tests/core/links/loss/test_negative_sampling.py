import numpy

import kusari.links as L


def test_sampler_distribution_and_zero_init():
    counts = [1, 0, 3, 4]
    link = L.NegativeSampling(3, counts, 5, power=0.5)
    assert link.W.shape == (4, 3) and (link.W.array == 0).all()
    numpy.random.seed(0)
    s = link.sampler.sample((20000,))
    assert s.dtype == numpy.int32 and not (s == 1).any()
    p = numpy.sqrt(numpy.array(counts, float))
    numpy.testing.assert_allclose(numpy.bincount(s, minlength=4) / 20000, p / p.sum(), atol=0.015)


def test_loss_against_numpy(sigmoid):
    rng = numpy.random.default_rng(0)
    link = L.NegativeSampling(3, [2, 1, 1, 5], 2)
    link.W.array[...] = rng.standard_normal((4, 3))
    x = rng.standard_normal((3, 3)).astype(numpy.float32)
    t = numpy.array([0, 3, 1], numpy.int32)
    loss, samples = link(x, t, reduce="no", return_samples=True)
    assert samples.shape == (3, 3)
    numpy.testing.assert_array_equal(samples[:, 0], t)
    w = link.W.array
    expected = [-numpy.log(sigmoid(w[s[0]] @ xi)) - sum(numpy.log(sigmoid(-w[k] @ xi)) for k in s[1:])
                for xi, s in zip(x, numpy.asarray(samples))]
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-5)
