"""RSGCNUpdate: the graph convolution of Kipf & Welling, ``(adj @ h) W^T`` without bias."""

from kusari import functions as F
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.link import Chain


class RSGCNUpdate(Chain):
    """``graph_linear(adj @ h)``, graph_linear having no bias.

    Parameters
    ----------
    in_channels : int or None
    out_channels : int
    """

    def __init__(self, in_channels: int | None, out_channels: int, **kwargs):
        super().__init__()
        with self.init_scope():
            self.graph_linear = GraphLinear(in_channels, out_channels, nobias=True)
        self.in_channels = in_channels
        self.out_channels = out_channels

    def forward(self, h, adj, **kwargs):
        """h: (minibatch, node, ch), adj: (minibatch, node, node) -> (minibatch, node, out_channels)."""
        return self.graph_linear(F.matmul(adj, h))
