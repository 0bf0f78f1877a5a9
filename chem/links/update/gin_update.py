"""GINUpdate: ``MLP(h + adj @ h)`` with ReLU and dropout (Xu et al., 2019)."""

from kusari import functions as F
from kusari.chem.links.connection.graph_mlp import GraphMLP
from kusari.link import Chain


class GINUpdate(Chain):
    """``dropout(relu(graph_mlp(h + adj @ h)))`` (no learnable epsilon, no batch normalization).

    Parameters
    ----------
    in_channels : int or None
    hidden_channels : int
    out_channels : int or None
        ``hidden_channels`` when None.
    dropout_ratio : float
        Dropout is skipped when <= 0 (and in test mode).
    n_layers : int
        Layers of graph_mlp.
    """

    def __init__(self, in_channels: int | None = None, hidden_channels: int = 16,
                 out_channels: int | None = None, dropout_ratio: float = 0.5,
                 n_layers: int = 2, **kwargs):
        super().__init__()
        if out_channels is None:
            out_channels = hidden_channels
        channels = [hidden_channels] * (n_layers - 1) + [out_channels]
        with self.init_scope():
            self.graph_mlp = GraphMLP(channels=channels, in_channels=in_channels,
                                      activation=F.relu)
        self.dropout_ratio = dropout_ratio

    def forward(self, h, adj, **kwargs):
        """Update the node features.

        Parameters
        ----------
        h : Variable, shape (minibatch, node, ch), or (node, ch) for a single graph
        adj : array or Variable, shape (minibatch, node, node)

        Returns
        -------
        Variable, shape (minibatch, node, out_channels)
        """
        if h.ndim == 2:
            h = h[None]
        mb, node, _ = h.shape
        if adj.ndim != 3 or adj.shape[1:] != (node, node):
            raise ValueError(f"GINUpdate: adj must have shape (minibatch, node, node) = "
                             f"{(mb, node, node)}, got {adj.shape} (h.shape={h.shape})")
        new_h = F.relu(self.graph_mlp(F.matmul(adj, h) + h))
        if self.dropout_ratio > 0.0:
            new_h = F.dropout(new_h, ratio=self.dropout_ratio)
        return new_h
