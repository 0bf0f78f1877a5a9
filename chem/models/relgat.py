"""RelGAT: Relational Graph Attention Network (Busbridge et al., 2018)."""
from collections.abc import Callable

from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.connection.embed_atom_id import EmbedAtomID
from kusari.chem.links.readout.ggnn_readout import GGNNReadout
from kusari.chem.links.update.relgat_update import RelGATUpdate
from kusari.chem.models._inputs import check_graph_inputs, is_atom_ids, real_atoms
from kusari.link import Chain, ChainList


class RelGAT(Chain):
    """Relational graph attention: RelGATUpdate layers, a gated readout on [h, h0].

    Parameters
    ----------
    out_dim : int
    hidden_channels : int
    n_update_layers : int
    n_atom_types : int
    concat_hidden : bool
        Read out after every layer and concatenate.
    dropout_ratio : float
        Dropout on the attention weights (training only; skipped when <= 0).
    weight_tying : bool
        Use the first update layer at every step (all layers are still built, as upstream).
    activation : callable
        Readout activations (identity by default).
    n_edge_types : int
    n_heads : int
    negative_slope : float
    softmax_mode : {'across', 'within'}
    concat_heads : bool
        Concatenate the heads instead of averaging them.
    """

    def __init__(self, out_dim: int, hidden_channels: int = 16, n_update_layers: int = 4,
                 n_atom_types: int = MAX_ATOMIC_NUM, concat_hidden: bool = False,
                 dropout_ratio: float = -1., weight_tying: bool = False,
                 activation: Callable = F.identity, n_edge_types: int = 4, n_heads: int = 3,
                 negative_slope: float = 0.2, softmax_mode: str = "across",
                 concat_heads: bool = False):
        super().__init__()
        n_readout_layer = n_update_layers if concat_hidden else 1
        head_factor = n_heads if concat_heads else 1
        with self.init_scope():
            self.embed = EmbedAtomID(out_size=hidden_channels, in_size=n_atom_types)
            self.update_layers = ChainList(*[
                RelGATUpdate(hidden_channels * (head_factor if i > 0 else 1), hidden_channels,
                             n_heads=n_heads, n_edge_types=n_edge_types,
                             dropout_ratio=dropout_ratio, negative_slope=negative_slope,
                             softmax_mode=softmax_mode, concat_heads=concat_heads)
                for i in range(n_update_layers)])
            self.readout_layers = ChainList(*[
                GGNNReadout(out_dim=out_dim, in_channels=hidden_channels * (head_factor + 1),
                            activation=activation, activation_agg=activation)
                for _ in range(n_readout_layer)])
        self.out_dim = out_dim
        self.n_heads = n_heads
        self.hidden_channels = hidden_channels
        self.n_update_layers = n_update_layers
        self.concat_hidden = concat_hidden
        self.concat_heads = concat_heads
        self.weight_tying = weight_tying
        self.negative_slope = negative_slope
        self.n_edge_types = n_edge_types
        self.dropout_ratio = dropout_ratio

    def forward(self, atom_array, adj, is_real_node=None):
        """Compute the graph vectors.

        Parameters
        ----------
        atom_array : array, shape (minibatch, N) int32, or (minibatch, N, hidden_channels) float
        adj : array or Variable, shape (minibatch, n_edge_types, N, N)
            RelGATPreprocessor's edge-typed adjacency (only its nonzero pattern is used).
        is_real_node : array or None, shape (minibatch, N)
            1 for real atoms, 0 for padding (derived from ``concat_mols``' -1 IDs when None).

        Returns
        -------
        Variable, shape (minibatch, out_dim) (``n_update_layers * out_dim`` with concat_hidden)
        """
        check_graph_inputs("RelGAT", atom_array, adj, self.n_edge_types)
        atom_array, is_real_node = real_atoms("RelGAT", atom_array, is_real_node)
        h = self.embed(atom_array) if is_atom_ids("RelGAT", atom_array) else atom_array
        h0 = h
        g_list = []
        for step in range(self.n_update_layers):
            h = self.update_layers[0 if self.weight_tying else step](h, adj, is_real_node=is_real_node)
            if self.concat_hidden:
                g_list.append(self.readout_layers[step](h, h0, is_real_node))
        if self.concat_hidden:
            return F.concat(g_list, axis=1)
        return self.readout_layers[0](h, h0, is_real_node)
