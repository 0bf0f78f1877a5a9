"""NFPReadout: softmax fingerprint of each node, summed over the nodes (Duvenaud et al., 2015)."""

from kusari import functions as F
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.chem.links.readout._mask import mask_padding_nodes
from kusari.link import Chain


class NFPReadout(Chain):
    """``sum_nodes(softmax_ch(output_weight(h)))``.

    Parameters
    ----------
    out_dim : int
        Fingerprint length.
    in_channels : int or None
    """

    def __init__(self, out_dim: int, in_channels: int | None):
        super().__init__()
        with self.init_scope():
            self.output_weight = GraphLinear(in_channels, out_dim)
        self.in_channels = in_channels
        self.out_dim = out_dim

    def forward(self, h, is_real_node=None, **kwargs):
        """h: (minibatch, node, ch), is_real_node: (minibatch, node) or None -> (minibatch, out_dim)."""
        i = F.softmax(self.output_weight(h), axis=2)
        return F.sum(mask_padding_nodes(i, is_real_node), axis=1)
