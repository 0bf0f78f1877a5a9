"""Set2Set: an order-invariant, LSTM-driven attention readout (Vinyals et al., 2015)."""
from kusari import functions as F
from kusari.chem.links.readout._mask import exclude_padding
from kusari.link import Chain
from kusari.links import NStepLSTM


class Set2Set(Chain):
    """One processing step per call; the LSTM state and the query persist until reset_state().

    Each call feeds the previous ``q*`` (zeros at first) to ``lstm_layer``, attends over the
    nodes with the LSTM output q (softmax over the nodes, or over the real ones given
    ``is_real_node``) and returns
    ``q* = [q, r]`` with r the attended node sum.

    Parameters
    ----------
    in_channels : int
        Node feature size ch.
    n_layers : int
        LSTM layers.
    """

    def __init__(self, in_channels: int, n_layers: int = 1):
        super().__init__()
        with self.init_scope():
            self.lstm_layer = NStepLSTM(n_layers=n_layers, in_size=in_channels * 2,
                                        out_size=in_channels, dropout=0)
        self.in_channels = in_channels
        self.n_layers = n_layers
        self.reset_state()

    def forward(self, h, is_real_node=None):
        """One attention step.

        Parameters
        ----------
        h : Variable or array, shape (minibatch, node, in_channels)
        is_real_node : array, Variable or None, shape (minibatch, node)
            1 for real nodes, 0 for padding (given no attention); None attends to every node.

        Returns
        -------
        Variable, shape (minibatch, 2 * in_channels)
        """
        mb, _, ch = h.shape
        if ch != self.in_channels:
            raise ValueError(f"Set2Set: h has {ch} channels but in_channels is {self.in_channels} "
                             f"(h.shape={h.shape})")
        lstm = self.lstm_layer
        if self.q_star is None:
            q_star = self.xp.zeros((mb, 2 * ch), dtype=h.dtype)
            hx = cx = self.xp.zeros((self.n_layers, mb, ch), dtype=h.dtype)
        elif self.q_star.shape[0] != mb:
            raise ValueError(f"Set2Set: h holds {mb} graphs but the state (from the last call) "
                             f"{self.q_star.shape[0]}; call reset_state() between batches "
                             f"(h.shape={h.shape})")
        else:
            q_star, hx, cx = self.q_star, self.hx, self.cx
        # the LSTM reads one step per graph: one batched step with lstm_layer's weights, which is
        # what the link computes for its mb one-step sequences (without splitting and re-stacking)
        hx, cx, (q,) = F.n_step_lstm(self.n_layers, lstm.dropout, hx, cx, lstm.ws, lstm.bs, [q_star])
        e = F.matmul(h, F.expand_dims(q, 2))  # (mb, node, 1)
        e = exclude_padding(e, is_real_node, node_axis=1)
        a = F.broadcast_to(F.softmax(e, axis=1), h.shape)
        r = F.sum(a * h, axis=1)  # (mb, ch)
        # the state changes only once the step has succeeded
        self.hx, self.cx, self.q_star = hx, cx, F.concat((q, r), axis=1)
        return self.q_star

    def reset_state(self) -> None:
        """Forget the LSTM state and the query."""
        self.hx = None
        self.cx = None
        self.q_star = None
