"""MPNNUpdate and its edge network EdgeNet (Gilmer et al., 2017)."""

from kusari import functions as F
from kusari.link import Chain, Link
from kusari.links import GRU


class EdgeNet(Chain):
    """Edge network message: each edge vector is mapped by ``nn`` to a (ch, ch) matrix.

    The incoming message uses adj as given, the outgoing one its transpose; ``nn_layer_in`` and
    ``nn_layer_out`` are the same link (shared weights, saved under both names).

    Parameters
    ----------
    out_channels : int
        Must equal the node feature size ch.
    nn : Link or None
        Maps (n, n_edge_types) to (n, out_channels ** 2); None: ``MLP(out_channels ** 2, 16)``.
    """

    def __init__(self, out_channels: int, nn: Link | None = None):
        super().__init__()
        if nn is None:
            # models import links, so the MLP model is imported only when it is needed
            from kusari.chem.models.mlp import MLP
            nn = MLP(out_dim=out_channels ** 2, hidden_dim=16)
        if not isinstance(nn, Link):
            raise TypeError(f"EdgeNet: nn must be a kusari Link, got {type(nn).__name__}")
        with self.init_scope():
            self.nn_layer_in = nn
            self.nn_layer_out = nn
        self.out_channels = out_channels

    def _edge_matrices(self, nn, adj, mb, node, ch):
        # (mb, E, node, node) -> block matrix (mb, node * ch, node * ch) of the per-edge (ch, ch)
        edge_type = adj.shape[1]
        a = nn(F.reshape(adj, (-1, edge_type)))
        a = F.transpose(F.reshape(a, (mb, node, node, ch, ch)), (0, 1, 3, 2, 4))
        return F.reshape(a, (mb, node * ch, node * ch))

    def forward(self, h, adj):
        """Compute the messages.

        Parameters
        ----------
        h : Variable, shape (minibatch, node, ch)
        adj : array or Variable, shape (minibatch, n_edge_types, node, node)

        Returns
        -------
        Variable, shape (minibatch, node, 2 * ch): incoming and outgoing messages
        """
        mb, node, ch = h.shape
        if ch != self.out_channels:
            raise ValueError(f"EdgeNet: h has {ch} channels but out_channels is "
                             f"{self.out_channels}; they must be equal (h.shape={h.shape})")
        if adj.ndim != 4 or adj.shape[0] != mb or adj.shape[2:] != (node, node):
            raise ValueError(f"EdgeNet: adj must have shape (minibatch, n_edge_types, node, node) "
                             f"with minibatch={mb}, node={node}, got {adj.shape}")
        adj_in = self._edge_matrices(self.nn_layer_in, adj, mb, node, ch)
        adj_out = self._edge_matrices(self.nn_layer_out, F.transpose(adj, (0, 1, 3, 2)),
                                      mb, node, ch)
        hv = F.reshape(h, (mb, node * ch, 1))
        message_in = F.reshape(F.matmul(adj_in, hv), (mb, node, ch))
        message_out = F.reshape(F.matmul(adj_out, hv), (mb, node, ch))
        return F.concat((message_in, message_out), axis=2)


class MPNNUpdate(Chain):
    """One MPNN step: EdgeNet messages fed to a stateful GRU per node.

    Parameters
    ----------
    in_channels : int or None
        Kept for the signature; the node size must equal ``hidden_channels`` (EdgeNet's rule).
    hidden_channels : int
    out_channels : int or None
        GRU state size (``hidden_channels`` when None).
    nn : Link or None
        EdgeNet's edge network.
    """

    def __init__(self, in_channels: int | None = None, hidden_channels: int = 16,
                 out_channels: int | None = None, nn: Link | None = None, **kwargs):
        super().__init__()
        if out_channels is None:
            out_channels = hidden_channels
        if in_channels is None:
            in_channels = out_channels
        with self.init_scope():
            self.message_layer = EdgeNet(out_channels=hidden_channels, nn=nn)
            self.update_layer = GRU(2 * hidden_channels, out_channels)
        self.in_channels = in_channels
        self.hidden_channels = hidden_channels
        self.out_channels = out_channels
        self.nn = nn

    def forward(self, h, adj, **kwargs):
        """h: (minibatch, node, hidden_channels), adj: (minibatch, E, node, node)
        -> (minibatch, node, out_channels)."""
        mb, node, _ = h.shape
        m = F.reshape(self.message_layer(h, adj), (mb * node, 2 * self.hidden_channels))
        return F.reshape(self.update_layer(m), (mb, node, self.out_channels))

    def reset_state(self) -> None:
        """Forget the GRU state (call once per new batch of graphs)."""
        self.update_layer.reset_state()
