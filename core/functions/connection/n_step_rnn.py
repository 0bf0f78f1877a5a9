"""n_step_rnn and n_step_birnn: stacked Elman RNNs over variable-length sequences, and the shared loop.

Every ``n_step_*`` function takes Chainer's list-of-weights layout: ``ws[l * D + d]`` and
``bs[l * D + d]`` hold the matrices and biases of layer ``l`` and direction ``d`` (D = 2 when
bidirectional), the first half of each list acting on the layer input and the second half on the
hidden state. ``xs`` lists the time steps ``(B_t, I)`` of sequences sorted by decreasing length,
so ``B_0 >= B_1 >= ...``; a sequence that has ended keeps its last state.
"""
import numpy

from kusari import utils
from kusari.functions.connection.linear import linear
from kusari.utils import argument


def check_rnn_kwargs(fname, kwargs):
    argument.check_unexpected_kwargs(
        kwargs,
        train=f"{fname}: the train argument is not supported anymore; use "
              "kusari.using_config('train', value)",
        use_cudnn=f"{fname}: the use_cudnn argument is not supported anymore; use "
                  "kusari.using_config('use_cudnn', value)")
    if kwargs:
        raise TypeError(f"{fname}: unexpected keyword argument(s) {', '.join(sorted(kwargs))}")


def _shape(a):
    return tuple(a.shape)


def _check_inputs(fname, n_weights, n_layers, directions, hx, cx, ws, bs, xs):
    """Validate ranks, batch order, dtypes and every weight shape; returns the hidden size N."""
    if int(n_layers) < 1:
        raise ValueError(f"{fname}: n_layers must be a positive integer, got {n_layers}")
    if not xs:
        raise ValueError(f"{fname}: xs must hold at least one time step, got an empty sequence")
    for t, x in enumerate(xs):
        utils.check_float(fname, f"xs[{t}]", x)
        utils.check_ndim(fname, f"xs[{t}]", x, 2)
        if x.shape[1] != xs[0].shape[1]:
            raise ValueError(f"{fname}: xs[{t}].shape={_shape(x)} has a different input size than "
                             f"xs[0].shape={_shape(xs[0])}")
        if t and x.shape[0] > xs[t - 1].shape[0]:
            raise ValueError(f"{fname}: batch sizes must not increase over time (sort sequences by "
                             f"decreasing length), got xs[{t - 1}].shape={_shape(xs[t - 1])} and "
                             f"xs[{t}].shape={_shape(x)}")
    utils.check_float(fname, "hx", hx)
    utils.check_ndim(fname, "hx", hx, 3)
    n_states = n_layers * directions
    if hx.shape[0] != n_states or hx.shape[1] != xs[0].shape[0]:
        raise ValueError(f"{fname}: hx must have shape (n_layers * {directions}, B, N) = "
                         f"({n_states}, {xs[0].shape[0]}, N) for B = len(xs[0]), "
                         f"got hx.shape={_shape(hx)}")
    if cx is not None and _shape(cx) != _shape(hx):
        raise ValueError(f"{fname}: cx.shape={_shape(cx)} must equal hx.shape={_shape(hx)}")
    n = hx.shape[2]
    if len(ws) != n_states or len(bs) != n_states:
        raise ValueError(f"{fname}: ws and bs must hold n_layers * {directions} = {n_states} lists, "
                         f"got len(ws)={len(ws)}, len(bs)={len(bs)}")
    arrays = {"hx": hx, "cx": cx, "xs[0]": xs[0]}
    half = n_weights // 2
    for i, (w, b) in enumerate(zip(ws, bs)):
        if len(w) != n_weights or len(b) != n_weights:
            raise ValueError(f"{fname}: ws[{i}] and bs[{i}] must hold {n_weights} arrays each, got "
                             f"{len(w)} and {len(b)}")
        n_in = xs[0].shape[1] if i < directions else n * directions
        for j in range(n_weights):
            want = (n, n_in if j < half else n)
            if _shape(w[j]) != want:
                raise ValueError(f"{fname}: ws[{i}][{j}] must have shape {want}, got "
                                 f"{_shape(w[j])}")
            if _shape(b[j]) != (n,):
                raise ValueError(f"{fname}: bs[{i}][{j}] must have shape ({n},), got {_shape(b[j])}")
            arrays[f"ws[{i}][{j}]"] = w[j]
            arrays[f"bs[{i}][{j}]"] = b[j]
    for t, x in enumerate(xs):
        arrays[f"xs[{t}]"] = x
    dtypes = {a.dtype for a in arrays.values() if a is not None}
    if len(dtypes) > 1:
        desc = ", ".join(f"{k}.dtype={a.dtype}" for k, a in arrays.items() if a is not None)
        raise TypeError(f"{fname}: dtypes must match ({desc}); cast explicitly, kusari never upcasts")


def _one_direction(step, projections, h0, c0, reverse):
    """Run ``step`` over the time steps; returns (final h, final c, per-step h in time order).

    ``h0``/``c0`` hold all B_0 sequences. Going forward the active batch shrinks: the rows of
    ended sequences are set aside. Going backward it grows: new rows start from ``h0``/``c0``.
    """
    from kusari.functions.array.concat import concat
    order = range(len(projections) - 1, -1, -1) if reverse else range(len(projections))
    first = len(projections[order[0]])
    h, c = h0[:first], None if c0 is None else c0[:first]
    done_h, done_c, hs = [], [], [None] * len(projections)
    for t in order:
        batch = len(projections[t])
        if batch < len(h):
            done_h.append(h[batch:])
            h = h[:batch]
            if c is not None:
                done_c.append(c[batch:])
                c = c[:batch]
        elif batch > len(h):
            h = concat([h, h0[len(h):batch]], axis=0)
            if c is not None:
                c = concat([c, c0[len(c):batch]], axis=0)
        h, c = step(projections[t], h, c)
        hs[t] = h
    if done_h:
        h = concat([h] + done_h[::-1], axis=0)
        if c is not None:
            c = concat([c] + done_c[::-1], axis=0)
    return h, c, hs


def run_n_step(fname, make_cell, n_weights, n_layers, dropout_ratio, hx, cx, ws, bs, xs,
               use_bi_direction):
    """The stacked (bi)directional loop behind every ``n_step_*`` function.

    ``make_cell(w, b)`` turns one layer's weight and bias lists into ``(W_in, b_in, step)``: the
    input projection (applied to all time steps in one GEMM) and ``step(projected_x, h, c) ->
    (h, c)``. Returns ``(hy, cy, ys)`` with ``cy`` None when ``cx`` is None.
    """
    from kusari.functions.array.concat import concat
    from kusari.functions.array.split_axis import split_axis
    from kusari.functions.array.stack import stack
    from kusari.functions.noise.dropout import dropout
    directions = 2 if use_bi_direction else 1
    if not 0 <= dropout_ratio < 1:
        raise ValueError(f"{fname}: dropout_ratio must be in [0, 1), got {dropout_ratio}")
    _check_inputs(fname, n_weights, n_layers, directions, hx, cx, ws, bs, xs)
    offsets = numpy.cumsum([len(x) for x in xs[:-1]]).tolist()
    seq = concat(list(xs), axis=0)
    hy, cy = [], []
    for layer in range(n_layers):
        outs = []
        for d in range(directions):
            i = layer * directions + d
            w_in, b_in, step = make_cell(ws[i], bs[i])
            # Chainer drops the input of every layer but the first, independently per direction.
            layer_in = dropout(seq, dropout_ratio) if layer and dropout_ratio else seq
            projections = split_axis(linear(layer_in, w_in, b_in), offsets, 0)
            h, c, hs = _one_direction(step, projections, hx[i], None if cx is None else cx[i],
                                      reverse=d == 1)
            hy.append(h)
            cy.append(c)
            outs.append(concat(hs, axis=0))
        seq = outs[0] if directions == 1 else concat(outs, axis=1)
    ys = split_axis(seq, offsets, 0)
    return stack(hy), None if cx is None else stack(cy), tuple(ys)


def _elman_cell(activation):
    def make_cell(w, b):
        def step(x, h, c):
            return activation(x + linear(h, w[1], b[1])), None
        return w[0], b[0], step
    return make_cell


def _activation(fname, name):
    from kusari.functions.activation.relu import relu
    from kusari.functions.activation.tanh import tanh
    functions = {"tanh": tanh, "relu": relu}
    if name not in functions:
        raise ValueError(f"{fname}: activation must be 'tanh' or 'relu', got {name!r}")
    return functions[name]


def n_step_rnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation="tanh", **kwargs):
    """Stacked Elman RNN: ``h_t = f(W_0 x_t + W_1 h_{t-1} + b_0 + b_1)`` with f tanh or relu.

    Parameters
    ----------
    n_layers : int
    dropout_ratio : float
        Dropout on the input of every layer but the first (training mode only).
    hx : Variable or array of shape (S, B, N), S = n_layers
    ws : list of S lists [W_0 (N, I or N), W_1 (N, N)]
    bs : list of S lists [b_0 (N,), b_1 (N,)]
    xs : list of T Variables or arrays of shape (B_t, I), B_0 = B >= B_1 >= ...
    activation : 'tanh' or 'relu'

    Returns
    -------
    hy : Variable of shape (S, B, N), the last hidden state of every sequence and layer
    ys : tuple of T Variables of shape (B_t, N), the last layer's hidden states
    """
    check_rnn_kwargs("n_step_rnn", kwargs)
    cell = _elman_cell(_activation("n_step_rnn", activation))
    hy, _, ys = run_n_step("n_step_rnn", cell, 2, n_layers, dropout_ratio, hx, None, ws, bs, xs,
                           False)
    return hy, ys


def n_step_birnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation="tanh", **kwargs):
    """Stacked bidirectional Elman RNN; ``ys[t]`` concatenates the forward and backward states.

    Shapes as in :func:`n_step_rnn` with S = 2 * n_layers (``ws[2 * l + d]``, d = 0 forward,
    1 backward); layers after the first take inputs of size 2N. Returns ``hy`` (2 n_layers, B, N)
    and ``ys``, a tuple of T Variables of shape (B_t, 2N).
    """
    check_rnn_kwargs("n_step_birnn", kwargs)
    cell = _elman_cell(_activation("n_step_birnn", activation))
    hy, _, ys = run_n_step("n_step_birnn", cell, 2, n_layers, dropout_ratio, hx, None, ws, bs, xs,
                           True)
    return hy, ys
