"""RelGATUpdate: multi-head graph attention per edge type (Busbridge et al., Relational GAT, 2018)."""

from kusari import functions as F
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.chem.links.readout._mask import exclude_padding
from kusari.link import Chain
from kusari.variable import Variable

_SOFTMAX_MODES = ("across", "within")
# logit given to non-neighbours before the softmax, as in Chainer Chemistry
_NOT_CONNECTED_LOGIT = -10000.0


class RelGATUpdate(Chain):
    """Attention-weighted neighbour sums, one message map per (edge type, head), summed over types.

    The logit of the pair (i, j) is ``leaky_relu(attention_layer([m_j, m_i]))`` where m are the
    messages of the edge type and head; non-neighbours get -10000.

    Parameters
    ----------
    in_channels : int or None
    out_channels : int
        Size of each head's output.
    n_heads : int
    n_edge_types : int
    dropout_ratio : float
        Dropout on the attention weights (training only; skipped when <= 0).
    negative_slope : float
        Slope of the leaky ReLU on the logits.
    softmax_mode : {'across', 'within'}
        Normalize over the neighbours of all edge types together ('across', ARGAT) or over each
        edge type's neighbours ('within', WIRGAT).
    concat_heads : bool
        Concatenate the heads (``n_heads * out_channels`` outputs) instead of averaging them.
    """

    def __init__(self, in_channels: int | None, out_channels: int, n_heads: int = 3,
                 n_edge_types: int = 4, dropout_ratio: float = -1., negative_slope: float = 0.2,
                 softmax_mode: str = "across", concat_heads: bool = False):
        super().__init__()
        if softmax_mode not in _SOFTMAX_MODES:
            raise ValueError(f"RelGATUpdate: softmax_mode must be one of {_SOFTMAX_MODES}, "
                             f"got {softmax_mode!r}")
        with self.init_scope():
            self.message_layer = GraphLinear(in_channels, out_channels * n_edge_types * n_heads)
            self.attention_layer = GraphLinear(out_channels * 2, 1)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.n_heads = n_heads
        self.n_edge_types = n_edge_types
        self.dropout_ratio = dropout_ratio
        self.softmax_mode = softmax_mode
        self.concat_heads = concat_heads
        self.negative_slope = negative_slope

    def forward(self, h, adj, is_real_node=None, **kwargs):
        """Update the node features.

        Parameters
        ----------
        h : Variable, shape (minibatch, node, in_channels)
        adj : array or Variable, shape (minibatch, n_edge_types, node, node)
            Only its nonzero pattern is used (no gradient flows into it).
        is_real_node : array or None, shape (minibatch, node)
            1 for real nodes, 0 for padding. A node without neighbours attends to every
            non-neighbour alike; the mask keeps padding nodes out of that.

        Returns
        -------
        Variable, shape (minibatch, node, out_channels), or
        (minibatch, node, n_heads * out_channels) with concat_heads
        """
        mb, node, _ = h.shape
        n_edge, n_heads, out = self.n_edge_types, self.n_heads, self.out_channels
        if adj.shape != (mb, n_edge, node, node):
            raise ValueError(f"RelGATUpdate: adj must have shape (minibatch, n_edge_types, node, "
                             f"node) = {(mb, n_edge, node, node)}, got {adj.shape} "
                             f"(h.shape={h.shape})")
        xp = self.xp
        # messages laid out (edge_type, head, ch) per node, as in Chainer Chemistry
        m = F.reshape(self.message_layer(h), (mb, node, n_edge, n_heads, out))
        m = F.transpose(m, (0, 2, 3, 1, 4))  # (mb, edge_type, head, node, out)
        # attention_layer on the concatenated pair [m_j, m_i] splits into a term of j and a term
        # of i, which avoids building all node * node pair features
        w = self.attention_layer.W
        term_j = F.matmul(m, F.transpose(w[:, :out]))  # (mb, edge_type, head, node, 1)
        term_i = F.matmul(m, F.transpose(w[:, out:]))
        shape = (mb, n_edge, n_heads, node, node)
        e = (F.broadcast_to(term_i, shape)
             + F.broadcast_to(F.transpose(term_j, (0, 1, 2, 4, 3)), shape)
             + F.broadcast_to(self.attention_layer.b, shape))
        e = F.leaky_relu(e, self.negative_slope)
        adj_array = adj.array if isinstance(adj, Variable) else adj
        connected = xp.broadcast_to((adj_array != 0)[:, :, None], shape)
        e = F.where(connected, e, xp.full(shape, _NOT_CONNECTED_LOGIT, dtype=e.dtype))
        e = exclude_padding(e, is_real_node, node_axis=4)
        if self.softmax_mode == "across":
            e = F.reshape(F.transpose(e, (0, 2, 3, 1, 4)), (mb, n_heads, node, n_edge * node))
            alpha = self._dropout(F.softmax(e, axis=3))
            alpha = F.reshape(alpha, (mb, n_heads, node, n_edge, node))
            alpha = F.transpose(alpha, (0, 3, 1, 2, 4))
        else:
            alpha = self._dropout(F.softmax(e, axis=4))
        h_new = F.sum(F.matmul(alpha, m), axis=1)  # (mb, head, node, out)
        if self.concat_heads:
            return F.reshape(F.transpose(h_new, (0, 2, 1, 3)), (mb, node, n_heads * out))
        return F.mean(h_new, axis=1)

    def _dropout(self, alpha):
        if self.dropout_ratio > 0.0:
            return F.dropout(alpha, ratio=self.dropout_ratio)
        return alpha
