"""GGNN: Gated Graph Neural Network (Li et al., 2015)."""
from collections.abc import Callable

from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.connection.embed_atom_id import EmbedAtomID
from kusari.chem.links.readout._mask import padding_mask
from kusari.chem.links.readout.ggnn_readout import GGNNReadout
from kusari.chem.links.update._rows import real_rows
from kusari.chem.links.update.ggnn_update import GGNNUpdate
from kusari.chem.models._inputs import check_graph_inputs, is_atom_ids, real_atoms
from kusari.link import Chain, ChainList


class GGNN(Chain):
    """Gated graph network: GRU updates over edge-typed messages, a gated readout on [h, h0].

    Parameters
    ----------
    out_dim : int
    hidden_channels : int
    n_update_layers : int
        Message-passing steps.
    n_atom_types : int
    concat_hidden : bool
        Read out after every step and concatenate.
    weight_tying : bool
        One update layer shared by all steps.
    activation : callable
        Readout activations (identity by default).
    n_edge_types : int
    """

    update_layer_class = GGNNUpdate   # GNNFiLM (a subclass) swaps in its own update layer

    def __init__(self, out_dim: int, hidden_channels: int = 16, n_update_layers: int = 4,
                 n_atom_types: int = MAX_ATOMIC_NUM, concat_hidden: bool = False,
                 weight_tying: bool = True, activation: Callable = F.identity,
                 n_edge_types: int = 4):
        super().__init__()
        n_readout_layer = n_update_layers if concat_hidden else 1
        n_message_layer = 1 if weight_tying else n_update_layers
        with self.init_scope():
            self.embed = EmbedAtomID(out_size=hidden_channels, in_size=n_atom_types)
            self.update_layers = ChainList(*[
                self.update_layer_class(hidden_channels=hidden_channels, n_edge_types=n_edge_types)
                for _ in range(n_message_layer)])
            self.readout_layers = ChainList(*[
                GGNNReadout(out_dim=out_dim, in_channels=hidden_channels * 2,
                            activation=activation, activation_agg=activation)
                for _ in range(n_readout_layer)])
        self.out_dim = out_dim
        self.hidden_channels = hidden_channels
        self.n_update_layers = n_update_layers
        self.n_edge_types = n_edge_types
        self.activation = activation
        self.concat_hidden = concat_hidden
        self.weight_tying = weight_tying

    def forward(self, atom_array, adj, is_real_node=None):
        """Compute the graph vectors.

        Parameters
        ----------
        atom_array : array, shape (minibatch, N) int32, or (minibatch, N, hidden_channels) float
        adj : array or Variable, shape (minibatch, n_edge_types, N, N)
            GGNNPreprocessor's edge-typed adjacency.
        is_real_node : array or None, shape (minibatch, N)

        Returns
        -------
        Variable, shape (minibatch, out_dim) (``n_update_layers * out_dim`` with concat_hidden)
        """
        name = type(self).__name__
        check_graph_inputs(name, atom_array, adj, self.n_edge_types)
        atom_array, is_real_node = real_atoms(name, atom_array, is_real_node)
        self.reset_state()
        h = self.embed(atom_array) if is_atom_ids(name, atom_array) else atom_array
        h0 = h
        # with the padding mask, the padding nodes' states are read by nothing: their updates are skipped
        rows = (real_rows(padding_mask(is_real_node, h.shape[:2]))
                if is_real_node is not None and isinstance(self.update_layers[0], GGNNUpdate) else None)
        g_list = []
        for step in range(self.n_update_layers):
            layer = self.update_layers[0 if self.weight_tying else step]
            h = layer(h, adj) if rows is None else layer(h, adj, real_rows=rows)
            if self.concat_hidden:
                g_list.append(self.readout_layers[step](h, h0, is_real_node))
        if self.concat_hidden:
            return F.concat(g_list, axis=1)
        return self.readout_layers[0](h, h0, is_real_node)

    def reset_state(self) -> None:
        """Forget the GRU states of the update layers."""
        for update_layer in self.update_layers:
            update_layer.reset_state()
