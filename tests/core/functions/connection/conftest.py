"""Helpers shared by the n_step RNN tests: Chainer's weight layout and a per-sequence float64 reference."""
import types

import numpy
import pytest

IN, UNITS, LAYERS = 3, 2, 2
BATCHES = (3, 3, 1)  # B_t per time step: three sequences of lengths 3, 2 and 2


def stacked_reference(cell, n_layers, directions, hx, cx, ws, bs, xs):
    """Run every sequence on its own, layer by layer and direction by direction (float64).

    ``cell(w, b, x, h, c) -> (h, c)`` acts on single vectors. Returns ``(hy, cy, ys)``.
    """
    f64 = lambda a: a.astype(numpy.float64)  # noqa: E731
    ws = [[f64(w) for w in group] for group in ws]
    bs = [[f64(b) for b in group] for group in bs]
    hy = f64(hx)
    cy = None if cx is None else f64(cx)
    ys = [numpy.zeros((len(x), hx.shape[2] * directions)) for x in xs]
    for seq_id in range(len(xs[0])):
        seq = numpy.stack([f64(x[seq_id]) for x in xs if len(x) > seq_id])
        for layer in range(n_layers):
            outs = []
            for d in range(directions):
                i = layer * directions + d
                h, c = hy[i, seq_id], None if cy is None else cy[i, seq_id]
                out = [None] * len(seq)
                for t in (range(len(seq) - 1, -1, -1) if d else range(len(seq))):
                    h, c = cell(ws[i], bs[i], seq[t], h, c)
                    out[t] = h
                hy[i, seq_id] = h
                if cy is not None:
                    cy[i, seq_id] = c
                outs.append(numpy.stack(out))
            seq = numpy.concatenate(outs, axis=1)
        for t in range(len(seq)):
            ys[t][seq_id] = seq[t]
    return hy, cy, ys


def make_inputs(n_weights, directions, dtype, with_cell, rng=numpy.random):
    """``(hx, [cx,] ws, bs, xs)`` in Chainer's list-of-lists layout, uniform in [-1, 1]."""
    u = lambda *shape: rng.uniform(-1, 1, shape).astype(dtype)  # noqa: E731
    states = [u(LAYERS * directions, BATCHES[0], UNITS) for _ in range(2 if with_cell else 1)]
    ws, bs = [], []
    for layer in range(LAYERS):
        n_in = IN if layer == 0 else UNITS * directions
        for _ in range(directions):
            ws.append([u(UNITS, n_in if j < n_weights // 2 else UNITS) for j in range(n_weights)])
            bs.append([u(UNITS) for _ in range(n_weights)])
    xs = [u(b, IN) for b in BATCHES]
    return tuple(states) + (ws, bs, xs)


def flatten(states, ws, bs, xs):
    """One flat tuple of arrays (the harness's input format)."""
    return tuple(states) + tuple(w for g in ws for w in g) + tuple(b for g in bs for b in g) + tuple(xs)


def unflatten(flat, n_states, n_groups, n_weights):
    """Inverse of :func:`flatten`: ``(states, ws, bs, xs)``."""
    states, rest = flat[:n_states], flat[n_states:]
    size = n_groups * n_weights
    ws = [list(rest[g * n_weights:(g + 1) * n_weights]) for g in range(n_groups)]
    bs = [list(rest[size + g * n_weights:size + (g + 1) * n_weights]) for g in range(n_groups)]
    return states, ws, bs, list(rest[2 * size:])


@pytest.fixture
def rnn():
    """The helpers above as one namespace."""
    return types.SimpleNamespace(IN=IN, UNITS=UNITS, LAYERS=LAYERS, BATCHES=BATCHES,
                                 reference=stacked_reference, make_inputs=make_inputs,
                                 flatten=flatten, unflatten=unflatten)
