"""n_step_lstm and n_step_bilstm: stacked LSTMs over variable-length sequences."""
from kusari.functions.connection.linear import linear
from kusari.functions.connection.n_step_rnn import check_rnn_kwargs, run_n_step


def _interleave(parts):
    """Stack the per-gate arrays (a, i, f, o) so that row ``4u + g`` is gate ``g`` of unit ``u``."""
    from kusari.functions.array.reshape import reshape
    from kusari.functions.array.stack import stack
    s = stack(parts, axis=1)
    return reshape(s, (s.shape[0] * s.shape[1],) + tuple(s.shape[2:]))


def _lstm_cell(w, b):
    from kusari.functions.activation.lstm import lstm
    # ws[.][0..3] act on x for the input, forget, cell-candidate and output gates (cuDNN's order);
    # F.lstm wants them interleaved in the order a (candidate), i, f, o.
    w_in = _interleave([w[2], w[0], w[1], w[3]])
    b_in = _interleave([b[2], b[0], b[1], b[3]])
    w_h = _interleave([w[6], w[4], w[5], w[7]])
    b_h = _interleave([b[6], b[4], b[5], b[7]])

    def step(x, h, c):
        c, h = lstm(c, x + linear(h, w_h, b_h))
        return h, c
    return w_in, b_in, step


def n_step_lstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """Stacked LSTM over a batch of variable-length sequences.

    ``i = sigmoid(W_0 x + W_4 h + b_0 + b_4)``, ``f = sigmoid(W_1 x + W_5 h + b_1 + b_5)``,
    ``a = tanh(W_2 x + W_6 h + b_2 + b_6)``, ``o = sigmoid(W_3 x + W_7 h + b_3 + b_7)``,
    ``c_t = f c_{t-1} + i a``, ``h_t = o tanh(c_t)``.

    Parameters
    ----------
    n_layers : int
    dropout_ratio : float
        Dropout on the input of every layer but the first (training mode only).
    hx, cx : Variables or arrays of shape (S, B, N), S = n_layers
    ws : list of S lists of 8 matrices: ``ws[l][0:4]`` (N, I) for l = 0 else (N, N), ``ws[l][4:8]`` (N, N)
    bs : list of S lists of 8 vectors of shape (N,)
    xs : list of T Variables or arrays of shape (B_t, I), B_0 = B >= B_1 >= ...

    Returns
    -------
    hy, cy : Variables of shape (S, B, N), the last hidden and cell states
    ys : tuple of T Variables of shape (B_t, N), the last layer's hidden states
    """
    check_rnn_kwargs("n_step_lstm", kwargs)
    return run_n_step("n_step_lstm", _lstm_cell, 8, n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                      False)


def n_step_bilstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """Stacked bidirectional LSTM; ``ys[t]`` concatenates the forward and backward hidden states.

    Shapes as in :func:`n_step_lstm` with S = 2 * n_layers (``ws[2 * l + d]``, d = 0 forward,
    1 backward); ``ws[l][0:4]`` for l >= 2 are (N, 2N). Returns ``hy``, ``cy`` of shape
    (2 n_layers, B, N) and ``ys``, a tuple of T Variables of shape (B_t, 2N).
    """
    check_rnn_kwargs("n_step_bilstm", kwargs)
    return run_n_step("n_step_bilstm", _lstm_cell, 8, n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                      True)
