import itertools

import numpy

import kusari.links as L


def _brute_nll(cost, x, y):
    """-log p(y | x) by enumerating every path of one sequence x (T, K)."""
    def score(path):
        return sum(x[i, p] for i, p in enumerate(path)) + sum(cost[a, b] for a, b in zip(path, path[1:]))
    scores = [score(p) for p in itertools.product(range(cost.shape[0]), repeat=len(x))]
    m = max(scores)
    return m + numpy.log(sum(numpy.exp(s - m) for s in scores)) - score(tuple(y))


def test_nll_and_viterbi_batch_major(check_link_backward):
    rng = numpy.random.default_rng(0)
    link = L.CRF1d(3, initial_cost=rng.standard_normal((3, 3)).astype(numpy.float32))
    seqs = [rng.standard_normal((t, 3)).astype(numpy.float32) for t in (3, 2)]
    labels = [numpy.array([0, 2, 1], numpy.int32), numpy.array([1, 1], numpy.int32)]
    loss = link(seqs, labels, reduce="no", transpose=True)
    cost = link.cost.array
    numpy.testing.assert_allclose(loss.array, [_brute_nll(cost, x, y) for x, y in zip(seqs, labels)],
                                  rtol=1e-5)
    score, path = link.argmax(seqs, transpose=True)
    for x, p in zip(seqs, path):
        best = min(itertools.product(range(3), repeat=len(x)), key=lambda q: _brute_nll(cost, x, q))
        numpy.testing.assert_array_equal(p, best)


def test_time_major_default_and_zero_cost():
    link = L.CRF1d(2)
    numpy.testing.assert_array_equal(link.cost.array, 0)
    xs = [numpy.array([[0.0, 1.0]], numpy.float32), numpy.array([[2.0, 0.0]], numpy.float32)]
    ys = [numpy.array([1], numpy.int32), numpy.array([0], numpy.int32)]
    # with zero transitions the steps are independent softmaxes
    expected = -numpy.log(numpy.exp(1) / (1 + numpy.exp(1))) - numpy.log(numpy.exp(2) / (1 + numpy.exp(2)))
    numpy.testing.assert_allclose(link(xs, ys).array, expected, rtol=1e-6)
