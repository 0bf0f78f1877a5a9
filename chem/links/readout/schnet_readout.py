"""SchNetReadout: per-atom two-layer network with shifted softplus, summed over atoms."""

from kusari import functions as F
from kusari.chem.functions import shifted_softplus
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.chem.links.readout._mask import mask_padding_nodes
from kusari.link import Chain


class SchNetReadout(Chain):
    """``sum_nodes(linear2(shifted_softplus(linear1(h))))``.

    Parameters
    ----------
    out_dim : int
    in_channels : int or None
    hidden_channels : int
    """

    def __init__(self, out_dim: int = 1, in_channels: int | None = None,
                 hidden_channels: int = 32):
        super().__init__()
        with self.init_scope():
            self.linear1 = GraphLinear(in_channels, hidden_channels)
            self.linear2 = GraphLinear(hidden_channels, out_dim)
        self.out_dim = out_dim
        self.hidden_dim = in_channels

    def forward(self, h, is_real_node=None, **kwargs):
        """h: (minibatch, node, ch), is_real_node: (minibatch, node) or None -> (minibatch, out_dim)."""
        return F.sum(mask_padding_nodes(self.linear2(shifted_softplus(self.linear1(h))), is_real_node),
                     axis=1)
