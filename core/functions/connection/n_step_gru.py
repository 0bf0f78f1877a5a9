"""n_step_gru and n_step_bigru: stacked GRUs over variable-length sequences."""
from kusari.functions.connection.linear import linear
from kusari.functions.connection.n_step_rnn import check_rnn_kwargs, run_n_step


def _gru_cell(w, b):
    from kusari.functions.activation.sigmoid import sigmoid
    from kusari.functions.activation.tanh import tanh
    from kusari.functions.array.concat import concat
    from kusari.functions.array.split_axis import split_axis
    w_in, b_in = concat(w[0:3], axis=0), concat(b[0:3], axis=0)
    w_h, b_h = concat(w[3:6], axis=0), concat(b[3:6], axis=0)

    def step(x, h, c):
        xr, xz, xn = split_axis(x, 3, 1)
        hr, hz, hn = split_axis(linear(h, w_h, b_h), 3, 1)
        r = sigmoid(xr + hr)
        z = sigmoid(xz + hz)
        candidate = tanh(xn + r * hn)
        return candidate + z * (h - candidate), None
    return w_in, b_in, step


def n_step_gru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """Stacked GRU over a batch of variable-length sequences.

    ``r = sigmoid(W_0 x + W_3 h + b_0 + b_3)``, ``z = sigmoid(W_1 x + W_4 h + b_1 + b_4)``,
    ``h' = tanh(W_2 x + b_2 + r (W_5 h + b_5))``, ``h_t = (1 - z) h' + z h_{t-1}``.

    Parameters
    ----------
    n_layers : int
    dropout_ratio : float
        Dropout on the input of every layer but the first (training mode only).
    hx : Variable or array of shape (S, B, N), S = n_layers
    ws : list of S lists of 6 matrices: ``ws[l][0:3]`` (N, I) for l = 0 else (N, N), ``ws[l][3:6]`` (N, N)
    bs : list of S lists of 6 vectors of shape (N,)
    xs : list of T Variables or arrays of shape (B_t, I), B_0 = B >= B_1 >= ...

    Returns
    -------
    hy : Variable of shape (S, B, N), the last hidden states
    ys : tuple of T Variables of shape (B_t, N), the last layer's hidden states
    """
    check_rnn_kwargs("n_step_gru", kwargs)
    hy, _, ys = run_n_step("n_step_gru", _gru_cell, 6, n_layers, dropout_ratio, hx, None, ws, bs, xs,
                           False)
    return hy, ys


def n_step_bigru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """Stacked bidirectional GRU; ``ys[t]`` concatenates the forward and backward hidden states.

    Shapes as in :func:`n_step_gru` with S = 2 * n_layers (``ws[2 * l + d]``, d = 0 forward,
    1 backward); ``ws[l][0:3]`` for l >= 2 are (N, 2N). Returns ``hy`` (2 n_layers, B, N) and
    ``ys``, a tuple of T Variables of shape (B_t, 2N).
    """
    check_rnn_kwargs("n_step_bigru", kwargs)
    hy, _, ys = run_n_step("n_step_bigru", _gru_cell, 6, n_layers, dropout_ratio, hx, None, ws, bs,
                           xs, True)
    return hy, ys
