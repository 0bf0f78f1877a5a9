import numpy
import pytest

import kusari.links as L


def _seqs(lengths, size, seed=0):
    rng = numpy.random.default_rng(seed)
    return [rng.standard_normal((t, size)).astype(numpy.float32) for t in lengths]


def _np_lstm_seq(cell, x, h, c, sigmoid):
    w = [getattr(cell, f"w{j}").array for j in range(8)]
    b = [getattr(cell, f"b{j}").array for j in range(8)]
    hs = []
    for xt in x:
        g = [xt @ w[k].T + b[k] + h @ w[k + 4].T + b[k + 4] for k in range(4)]
        c = sigmoid(g[1]) * c + sigmoid(g[0]) * numpy.tanh(g[2])
        h = sigmoid(g[3]) * numpy.tanh(c)
        hs.append(h)
    return h, c, numpy.array(hs)


def test_lstm_unsorted_lengths_against_numpy(sigmoid):
    link = L.NStepLSTM(1, 3, 2, 0.0)
    assert len(link) == 1 and link[0].w0.shape == (2, 3) and link[0].w4.shape == (2, 2)
    xs = _seqs([2, 4, 3], 3)
    rng = numpy.random.default_rng(1)
    hx = rng.standard_normal((1, 3, 2)).astype(numpy.float32)
    cx = rng.standard_normal((1, 3, 2)).astype(numpy.float32)
    hy, cy, ys = link(hx, cx, xs)
    assert hy.shape == (1, 3, 2) and len(ys) == 3
    for b, x in enumerate(xs):
        h, c, hs = _np_lstm_seq(link[0], x, hx[0, b], cx[0, b], sigmoid)
        numpy.testing.assert_allclose(ys[b].array, hs, rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(hy.array[0, b], h, rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(cy.array[0, b], c, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("cls, activation", [(L.NStepRNNTanh, numpy.tanh),
                                             (L.NStepRNNReLU, lambda v: numpy.maximum(v, 0))])
def test_elman_two_layers_default_state(cls, activation):
    link = cls(2, 3, 4, 0.0)
    assert link[1].w0.shape == (4, 4)
    xs = _seqs([3, 1], 3)
    hy, ys = link(None, xs)
    for b, x in enumerate(xs):
        seq = x
        for layer in range(2):
            cell = link[layer]
            h = numpy.zeros(4)
            out = []
            for xt in seq:
                h = activation(xt @ cell.w0.array.T + cell.b0.array + h @ cell.w1.array.T + cell.b1.array)
                out.append(h)
            seq = numpy.array(out)
            numpy.testing.assert_allclose(hy.array[layer, b], h, rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(ys[b].array, seq, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("cls, with_cell", [(L.NStepBiLSTM, True), (L.NStepBiGRU, False),
                                            (L.NStepBiRNNTanh, False), (L.NStepBiRNNReLU, False)])
def test_bidirectional_layout(cls, with_cell):
    link = cls(2, 3, 2, 0.0)
    assert len(link) == 4 and link[2].w0.shape == (2, 4)
    xs = _seqs([2, 3], 3, seed=2)
    out = link(None, None, xs) if with_cell else link(None, xs)
    hy, ys = out[0], out[-1]
    assert hy.shape == (4, 2, 2) and [y.shape for y in ys] == [(2, 4), (3, 4)]
    for b in range(2):
        # the last layer's forward state ends at the last step, its backward state at the first
        numpy.testing.assert_allclose(ys[b].array[-1, :2], hy.array[2, b], rtol=1e-6)
        numpy.testing.assert_allclose(ys[b].array[0, 2:], hy.array[3, b], rtol=1e-6)


def test_gru_one_step(sigmoid):
    link = L.NStepGRU(1, 2, 3, 0.0, initial_bias=0.1)
    assert len(link.ws[0]) == 6
    numpy.testing.assert_array_equal(link[0].b5.array, numpy.float32(0.1))
    x = _seqs([1], 2)[0]
    hy, ys = link(None, [x])
    w = [getattr(link[0], f"w{j}").array for j in range(6)]
    b = [getattr(link[0], f"b{j}").array for j in range(6)]
    h = numpy.zeros(3)
    r = sigmoid(x[0] @ w[0].T + b[0] + h @ w[3].T + b[3])
    z = sigmoid(x[0] @ w[1].T + b[1] + h @ w[4].T + b[4])
    n = numpy.tanh(x[0] @ w[2].T + b[2] + r * (h @ w[5].T + b[5]))
    numpy.testing.assert_allclose(hy.array[0, 0], (1 - z) * n + z * h, rtol=1e-5, atol=1e-6)


def test_backward_through_weights():
    from kusari import gradient_check
    link = L.NStepLSTM(1, 2, 2, 0.0)
    for p in link.params():
        p.array = p.array.astype(numpy.float64)
    xs = [x.astype(numpy.float64) for x in _seqs([3, 2], 2, seed=4)]
    gy = numpy.random.default_rng(5).standard_normal((1, 2, 2))

    def f(x0, x1):
        return link(None, None, [x0, x1])[0]

    gradient_check.check_backward(f, tuple(xs), gy, params=list(link.params()), eps=1e-4,
                                  atol=1e-4, rtol=1e-3)


def test_xs_must_be_a_list():
    with pytest.raises(TypeError, match="NStepGRU.*xs"):
        L.NStepGRU(1, 2, 2, 0.0)(None, numpy.zeros((2, 3, 2), numpy.float32))


@pytest.mark.parametrize("cls,n_cells", [(L.NStepLSTM, 2), (L.NStepBiLSTM, 2), (L.NStepGRU, 1), (L.NStepBiGRU, 1),
                                         (L.NStepRNNTanh, 1), (L.NStepBiRNNReLU, 1)])
def test_n_cells_counts_the_states_forward_returns_before_ys(cls, n_cells):
    rnn = cls(1, 3, 4, 0.0)
    assert rnn.n_cells == n_cells
    out = rnn(*([None] * n_cells), _seqs([2, 1], 3))
    assert len(out) == n_cells + 1
