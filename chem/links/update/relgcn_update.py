"""RelGCNUpdate: a self term plus one linear message per edge type (Schlichtkrull et al., 2017)."""

from kusari import functions as F
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.link import Chain


class RelGCNUpdate(Chain):
    """``graph_linear_self(h) + sum_e adj[:, e] @ W_e h`` with the W_e stacked in graph_linear_edge.

    Parameters
    ----------
    in_channels : int or None
    out_channels : int
    n_edge_types : int
    """

    def __init__(self, in_channels: int | None, out_channels: int, n_edge_types: int = 4,
                 **kwargs):
        super().__init__()
        with self.init_scope():
            self.graph_linear_self = GraphLinear(in_channels, out_channels)
            self.graph_linear_edge = GraphLinear(in_channels, out_channels * n_edge_types)
        self.n_edge_types = n_edge_types
        self.in_channels = in_channels
        self.out_channels = out_channels

    def forward(self, h, adj, **kwargs):
        """Update the node features.

        Parameters
        ----------
        h : Variable, shape (minibatch, node, in_channels)
        adj : array or Variable, shape (minibatch, n_edge_types, node, node)

        Returns
        -------
        Variable, shape (minibatch, node, out_channels)
        """
        mb, node, _ = h.shape
        if adj.shape != (mb, self.n_edge_types, node, node):
            raise ValueError(f"RelGCNUpdate: adj must have shape (minibatch, n_edge_types, node, "
                             f"node) = {(mb, self.n_edge_types, node, node)}, got {adj.shape}")
        # the linear output is laid out (ch, edge_type) per node, as in Chainer Chemistry
        m = F.reshape(self.graph_linear_edge(h), (mb, node, self.out_channels, self.n_edge_types))
        m = F.transpose(m, (0, 3, 1, 2))
        return self.graph_linear_self(h) + F.sum(F.matmul(adj, m), axis=1)
