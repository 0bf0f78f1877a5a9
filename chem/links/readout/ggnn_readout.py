"""GGNNReadout: gated sum of node features (Li et al., 2015)."""
from collections.abc import Callable

from kusari import functions as F
from kusari.chem.functions.array.put_rows import put_rows
from kusari.chem.functions.array.take_rows import take_rows
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.chem.links.readout._mask import padding_mask
from kusari.chem.links.update._rows import real_rows
from kusari.link import Chain


class GGNNReadout(Chain):
    """``activation_agg(sum_nodes(sigmoid(i_layer([h, h0])) * activation(j_layer([h, h0]))))``.

    Parameters
    ----------
    out_dim : int
    in_channels : int or None
        Size of the concatenation of h and h0 (None: inferred).
    nobias : bool
    activation, activation_agg : callable
        On the node term and on the summed vector (identity by default).
    """

    def __init__(self, out_dim: int, in_channels: int | None = None, nobias: bool = False,
                 activation: Callable = F.identity, activation_agg: Callable = F.identity):
        super().__init__()
        with self.init_scope():
            self.i_layer = GraphLinear(in_channels, out_dim, nobias=nobias)
            self.j_layer = GraphLinear(in_channels, out_dim, nobias=nobias)
        self.out_dim = out_dim
        self.in_channels = in_channels
        self.nobias = nobias
        self.activation = activation
        self.activation_agg = activation_agg

    def forward(self, h, h0=None, is_real_node=None):
        """Read out one vector per graph.

        Parameters
        ----------
        h : Variable, shape (minibatch, node, ch)
        h0 : Variable or None, shape (minibatch, node, ch0)
            Initial node features, concatenated to h when given.
        is_real_node : array or None, shape (minibatch, node)

        Returns
        -------
        Variable, shape (minibatch, out_dim)
        """
        hh = h if h0 is None else F.concat((h, h0), axis=2)
        if is_real_node is None:
            g = F.sigmoid(self.i_layer(hh)) * self.activation(self.j_layer(hh))
            return self.activation_agg(F.sum(g, axis=1))
        # the padding nodes' terms are masked out: only the real nodes' rows are computed
        mb, node, ch = hh.shape
        rows = real_rows(padding_mask(is_real_node, (mb, node)))
        hr = F.reshape(take_rows(F.reshape(hh, (mb * node, ch)), rows), (1, len(rows), ch))
        g = F.sigmoid(self.i_layer(hr)) * self.activation(self.j_layer(hr))
        g = put_rows(F.reshape(g, (len(rows), self.out_dim)), rows, mb * node)
        return self.activation_agg(F.sum(F.reshape(g, (mb, node, self.out_dim)), axis=1))
