"""Tree-LSTM layers: ChildSumTreeLSTM and NaryTreeLSTM (Tai et al., 2015)."""
from kusari import functions as F
from kusari.link import Chain
from kusari.links.connection.linear import Linear
from kusari.variable import Variable


def _split_states(who, cshsx, n_children=None):
    """``(c_1..c_n, h_1..h_n, x)`` -> (cs, hs, x), checking the count."""
    if len(cshsx) % 2 == 0 or (n_children is not None and len(cshsx) != 2 * n_children + 1):
        want = "an odd number" if n_children is None else str(2 * n_children + 1)
        raise ValueError(f"{who}: expected (c_1, ..., c_n, h_1, ..., h_n, x), {want} of inputs, "
                         f"got {len(cshsx)}")
    n = len(cshsx) // 2
    return list(cshsx[:n]), list(cshsx[n:2 * n]), cshsx[-1]


def _x_or_zeros(who, x, states, in_size, xp):
    """``x``, or when it is None zeros (B, in_size) shaped by the first given state: W_x's bias
    still counts, as in Chainer."""
    if x is not None:
        return x
    base = next((s for s in states if s is not None), None)
    if base is None:
        raise ValueError(f"{who}: x and every c and h are None; nothing to compute from")
    return Variable(xp.zeros((base.shape[0], in_size), base.dtype), requires_grad=False)


def _zeros_for_none(states, shape, dtype, xp):
    return [Variable(xp.zeros(shape, dtype), requires_grad=False) if s is None else s
            for s in states]


class ChildSumTreeLSTM(Chain):
    """Child-sum Tree-LSTM: ``(c_1, ..., c_n, h_1, ..., h_n, x) -> (c, h)`` for any n >= 0.

    Links: ``W_x`` Linear(in_size, 4 out), ``W_h_aio`` Linear(out, 3 out, nobias) applied to
    ``sum_k h_k``, ``W_h_f`` Linear(out, out, nobias) applied to each h_k (one forget gate per
    child). States: (B, out_size); x: (B, in_size). None children count as zeros, and so does a None
    ``x`` when a state is given.
    """

    def __init__(self, in_size, out_size):
        super().__init__()
        self.in_size = in_size
        self.state_size = out_size
        with self.init_scope():
            self.W_x = Linear(in_size, 4 * out_size)
            self.W_h_aio = Linear(out_size, 3 * out_size, nobias=True)
            self.W_h_f = Linear(out_size, out_size, nobias=True)

    def forward(self, *cshsx):
        """(c_1..c_n, h_1..h_n, x) -> (c, h), each (B, out_size)."""
        cs, hs, x = _split_states("ChildSumTreeLSTM", cshsx)
        n = self.state_size
        x = _x_or_zeros("ChildSumTreeLSTM", x, cs + hs, self.in_size, self.xp)
        x_aio, x_f = F.split_axis(self.W_x(x), [3 * n], axis=1)
        if not cs:
            a, i, o = F.split_axis(x_aio, 3, axis=1)
            c = F.sigmoid(i) * F.tanh(a)
            return c, F.sigmoid(o) * F.tanh(c)
        shape = (x.shape[0], n)
        hs = _zeros_for_none(hs, shape, x.dtype, self.xp)
        cs = _zeros_for_none(cs, shape, x.dtype, self.xp)
        aio = self.W_h_aio(sum(hs[1:], hs[0])) + x_aio
        fs = [self.W_h_f(h) + x_f for h in hs]
        return F.tree_lstm(*cs, F.concat([aio] + fs, axis=1))


class NaryTreeLSTM(Chain):
    """N-ary Tree-LSTM: ``(c_1, ..., c_N, h_1, ..., h_N, x) -> (c, h)`` with exactly ``n_ary`` children.

    Links: ``W_x`` Linear(in_size, (3 + n_ary) out) and ``W_h1``..``W_h{n_ary}``
    Linear(out, (3 + n_ary) out, nobias), one per child position. None states count as zeros, and so
    does a None ``x`` when a state is given.
    """

    def __init__(self, in_size, out_size, n_ary=2):
        super().__init__()
        if n_ary < 1:
            raise ValueError(f"NaryTreeLSTM: n_ary must be >= 1, got {n_ary}")
        self.in_size = in_size
        self.state_size = out_size
        self.n_ary = n_ary
        with self.init_scope():
            self.W_x = Linear(in_size, (3 + n_ary) * out_size)
            for k in range(1, n_ary + 1):
                setattr(self, f"W_h{k}", Linear(out_size, (3 + n_ary) * out_size, nobias=True))

    def forward(self, *cshsx):
        """(c_1..c_N, h_1..h_N, x) -> (c, h), each (B, out_size)."""
        cs, hs, x = _split_states("NaryTreeLSTM", cshsx, self.n_ary)
        x = _x_or_zeros("NaryTreeLSTM", x, cs + hs, self.in_size, self.xp)
        terms = [self.W_x(x)] + [getattr(self, f"W_h{k + 1}")(h) for k, h in enumerate(hs) if h is not None]
        batch, dtype = terms[0].shape[0], terms[0].dtype
        cs = _zeros_for_none(cs, (batch, self.state_size), dtype, self.xp)
        return F.tree_lstm(*cs, sum(terms[1:], terms[0]))
