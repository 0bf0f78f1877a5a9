"""GGNNUpdate: edge-type-wise messages aggregated into a GRU (Li et al., 2015)."""

from kusari import functions as F
from kusari.chem.functions.array.put_rows import put_rows
from kusari.chem.functions.array.take_rows import take_rows
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.link import Chain
from kusari.links import GRU


class GGNNUpdate(Chain):
    """One GGNN step: per-edge-type messages, summed, then a stateful GRU per node.

    Parameters
    ----------
    in_channels : int or None
        Node feature size (None: inferred on the first call).
    hidden_channels : int
        Message size per edge type.
    out_channels : int or None
        GRU state size (``hidden_channels`` when None).
    n_edge_types : int
    """

    def __init__(self, in_channels: int | None = None, hidden_channels: int = 16,
                 out_channels: int | None = None, n_edge_types: int = 4, **kwargs):
        super().__init__()
        if out_channels is None:
            out_channels = hidden_channels
        gru_in_channels = None if in_channels is None else in_channels + hidden_channels
        with self.init_scope():
            self.graph_linear = GraphLinear(in_channels, n_edge_types * hidden_channels)
            self.update_layer = GRU(gru_in_channels, out_channels)
        self.n_edge_types = n_edge_types
        self.in_channels = in_channels
        self.hidden_channels = hidden_channels
        self.out_channels = out_channels

    def forward(self, h, adj, real_rows=None, **kwargs):
        """Update the node states.

        Parameters
        ----------
        h : Variable, shape (minibatch, node, in_channels)
        adj : array or Variable, shape (minibatch, n_edge_types, node, node)
        real_rows : int array or None
            Indices of the real nodes among the ``minibatch * node`` rows (``_rows.real_rows`` of the
            batch's ``is_real_node``). Given, only those rows' messages and GRU updates are computed
            and the padding nodes' states are 0; the same rows must be given at every step of one
            batch (the GRU's state holds only them).

        Returns
        -------
        Variable, shape (minibatch, node, out_channels)
        """
        mb, node, in_ch = h.shape
        n_edge, hid = self.n_edge_types, self.hidden_channels
        if adj.shape != (mb, n_edge, node, node):
            raise ValueError(f"GGNNUpdate: adj must have shape (minibatch, n_edge_types, node, node) "
                             f"= {(mb, n_edge, node, node)}, got {adj.shape} (h.shape={h.shape})")
        # One batched matmul sends the messages and sums them over edge types: row j * n_edge + e of
        # `sent` is node j's message along edge type e, and column j * n_edge + e of `received` is
        # adj[:, e, :, j]. The parameters keep Chainer Chemistry's (ch, edge type) output layout;
        # their rows are reordered to (edge type, ch) here, which needs no copy of the messages.
        rows = F.reshape(h, (mb * node, in_ch))
        if real_rows is None:
            sent = self._messages(rows)
        else:
            # a padding node sends and receives nothing (its adjacency rows and columns are 0), so
            # its state is needed by no real node: only the real nodes' rows are computed, and the
            # padding rows of the messages and of the new state are 0
            rows = take_rows(rows, real_rows)
            sent = put_rows(self._messages(rows), real_rows, mb * node)
        received = F.reshape(F.transpose(adj, (0, 2, 3, 1)), (mb, node, node * n_edge))
        m = F.reshape(F.matmul(received, F.reshape(sent, (mb, node * n_edge, hid))), (mb * node, hid))
        if real_rows is None:
            return F.reshape(self.update_layer(F.concat((rows, m), axis=1)), (mb, node, self.out_channels))
        state = self.update_layer(F.concat((rows, take_rows(m, real_rows)), axis=1))
        return F.reshape(put_rows(state, real_rows, mb * node), (mb, node, self.out_channels))

    def _messages(self, rows):
        """``graph_linear`` of node rows (R, in_channels), laid out (edge type, ch): (R, n_edge * hid)."""
        linear, n_edge, hid = self.graph_linear, self.n_edge_types, self.hidden_channels
        if linear.W.array is None:
            linear._initialize_params(rows.shape[1])
        W = F.reshape(F.transpose(F.reshape(linear.W, (hid, n_edge, -1)), (1, 0, 2)), (n_edge * hid, -1))
        b = None if linear.b is None else F.reshape(F.transpose(F.reshape(linear.b, (hid, n_edge))), (-1,))
        return F.linear(rows, W, b)

    def reset_state(self) -> None:
        """Forget the GRU state (call once per new batch of graphs)."""
        self.update_layer.reset_state()
