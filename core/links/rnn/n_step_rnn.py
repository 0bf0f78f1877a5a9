"""Stacked multi-layer RNN links over batches of variable-length sequences: NStepLSTM, NStepGRU, NStepRNNTanh, ... and their bidirectional forms."""
import numpy

from kusari import functions as F
from kusari import initializers
from kusari.link import ChainList, Link
from kusari.variable import Parameter, Variable


class _Cell(Link):
    """The weights ``w0..w{n-1}`` and biases ``b0..b{n-1}`` of one layer and direction."""

    def __init__(self, n_weights, in_size, out_size, initialW, initial_bias):
        super().__init__()
        with self.init_scope():
            for j in range(n_weights):
                cols = in_size if j < n_weights // 2 else out_size
                setattr(self, f"w{j}", Parameter(initializers._get_initializer(initialW),
                                                 (out_size, cols)))
                setattr(self, f"b{j}", Parameter(initializers._get_initializer(initial_bias),
                                                 out_size))


class NStepRNNBase(ChainList):
    """Shared machinery: ``n_layers`` layers (x2 when bidirectional), each a link of weights.

    Parameters
    ----------
    n_layers : int
    in_size, out_size : int
    dropout : float
        Dropout ratio on the input of every layer after the first (training only).
    initialW : initializer (LeCunNormal), initial_bias : initializer (0)

    Calling it with ``xs``, a list of B sequences of shape (T_b, in_size) in any order, returns
    the final states (S, B, out_size) (S = n_layers * directions) and ``ys``, a list of B arrays
    (T_b, out_size * directions) in the order of ``xs``.
    """

    n_weights = None
    use_bi_direction = False
    use_cell = False

    def __init__(self, n_layers, in_size, out_size, dropout, *, initialW=None, initial_bias=None):
        direction = 2 if self.use_bi_direction else 1
        cells = []
        for layer in range(n_layers):
            for _ in range(direction):
                n_in = in_size if layer == 0 else out_size * direction
                cells.append(_Cell(self.n_weights, n_in, out_size, initialW,
                                   0 if initial_bias is None else initial_bias))
        super().__init__(*cells)
        self.direction = direction
        self.n_layers = n_layers
        self.dropout = dropout
        self.out_size = out_size

    @property
    def ws(self):
        return [[getattr(c, f"w{j}") for j in range(self.n_weights)] for c in self]

    @property
    def bs(self):
        return [[getattr(c, f"b{j}") for j in range(self.n_weights)] for c in self]

    def init_hx(self, xs):
        """Zero states of shape (n_layers * directions, len(xs), out_size)."""
        shape = (self.n_layers * self.direction, len(xs), self.out_size)
        return Variable(self.xp.zeros(shape, xs[0].dtype), requires_grad=False)

    def _rnn(self, hx, cx, ws, bs, xs):
        raise NotImplementedError

    def _run(self, hx, cx, xs):
        name = type(self).__name__
        if not isinstance(xs, (list, tuple)) or not xs:
            raise TypeError(f"{name}: xs must be a non-empty list of sequences (T_b, in_size), "
                            f"got {type(xs).__name__}")
        lengths = numpy.array([len(x) for x in xs])
        order = numpy.argsort(-lengths, kind="stable")
        indices = self.xp.asarray(order.astype(numpy.int32))
        sorted_xs = [xs[i] for i in order]
        if hx is None:
            hx = self.init_hx(xs)
        else:
            hx = F.permutate(hx, indices, axis=1)
        if self.use_cell:
            cx = self.init_hx(xs) if cx is None else F.permutate(cx, indices, axis=1)
        out = self._rnn(hx, cx, self.ws, self.bs, F.transpose_sequence(sorted_xs))
        states = [F.permutate(s, indices, axis=1, inv=True) for s in out[:-1]]
        ys_sorted = F.transpose_sequence(out[-1])
        ys = [None] * len(xs)
        for pos, i in enumerate(order):
            ys[i] = ys_sorted[pos]
        return tuple(states) + (ys,)


class _NStepPlain(NStepRNNBase):
    """Forward ``(hx, xs) -> (hy, ys)``; hx may be None (zeros)."""

    n_cells = 1  # the states besides ys that forward takes and returns: hx

    def forward(self, hx, xs, **kwargs):
        """hx: (S, B, out_size) or None; xs: B arrays (T_b, in_size) -> (hy, ys)."""
        return self._run(hx, None, xs)


class _NStepWithCell(NStepRNNBase):
    """Forward ``(hx, cx, xs) -> (hy, cy, ys)``; hx, cx may be None (zeros)."""

    n_weights = 8
    use_cell = True
    n_cells = 2  # hx and cx

    def forward(self, hx, cx, xs, **kwargs):
        """hx, cx: (S, B, out_size) or None; xs: B arrays (T_b, in_size) -> (hy, cy, ys)."""
        return self._run(hx, cx, xs)


class NStepLSTM(_NStepWithCell):
    """Stacked unidirectional LSTM (see ``F.n_step_lstm`` for the weights w0..w7)."""

    def _rnn(self, hx, cx, ws, bs, xs):
        return F.n_step_lstm(self.n_layers, self.dropout, hx, cx, ws, bs, xs)


class NStepBiLSTM(_NStepWithCell):
    """Stacked bidirectional LSTM; ``ys`` hold (T_b, 2 out_size)."""

    use_bi_direction = True

    def _rnn(self, hx, cx, ws, bs, xs):
        return F.n_step_bilstm(self.n_layers, self.dropout, hx, cx, ws, bs, xs)


class NStepGRU(_NStepPlain):
    """Stacked unidirectional GRU (see ``F.n_step_gru`` for the weights w0..w5)."""

    n_weights = 6

    def _rnn(self, hx, cx, ws, bs, xs):
        return F.n_step_gru(self.n_layers, self.dropout, hx, ws, bs, xs)


class NStepBiGRU(NStepGRU):
    """Stacked bidirectional GRU; ``ys`` hold (T_b, 2 out_size)."""

    use_bi_direction = True

    def _rnn(self, hx, cx, ws, bs, xs):
        return F.n_step_bigru(self.n_layers, self.dropout, hx, ws, bs, xs)


class NStepRNNTanh(_NStepPlain):
    """Stacked Elman RNN ``h_t = tanh(W_0 x + b_0 + W_1 h_{t-1} + b_1)``."""

    n_weights = 2
    activation = "tanh"

    def _rnn(self, hx, cx, ws, bs, xs):
        if self.use_bi_direction:
            return F.n_step_birnn(self.n_layers, self.dropout, hx, ws, bs, xs, self.activation)
        return F.n_step_rnn(self.n_layers, self.dropout, hx, ws, bs, xs, self.activation)


class NStepRNNReLU(NStepRNNTanh):
    """Stacked Elman RNN with ReLU: ``h_t = relu(W_0 x + b_0 + W_1 h_{t-1} + b_1)``."""

    activation = "relu"


class NStepBiRNNTanh(NStepRNNTanh):
    """Bidirectional NStepRNNTanh; ``ys`` hold (T_b, 2 out_size)."""

    use_bi_direction = True


class NStepBiRNNReLU(NStepRNNReLU):
    """Bidirectional NStepRNNReLU; ``ys`` hold (T_b, 2 out_size)."""

    use_bi_direction = True
