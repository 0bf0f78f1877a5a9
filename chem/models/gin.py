"""GIN: Graph Isomorphism Network (Xu et al., ICLR 2019)."""
from collections.abc import Callable

from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.connection.embed_atom_id import EmbedAtomID
from kusari.chem.links.connection.graph_mlp import GraphMLP
from kusari.chem.links.readout.ggnn_readout import GGNNReadout
from kusari.chem.links.update.gin_update import GINUpdate
from kusari.chem.models._inputs import check_graph_inputs, is_atom_ids, real_atoms
from kusari.link import Chain, ChainList


class GIN(Chain):
    """Graph isomorphism network: ``MLP(h + adj @ h)`` updates, a gated readout on [h, h0].

    Parameters
    ----------
    out_dim : int
    node_embedding : bool
        Return the node features (minibatch, N, out_channels) instead of graph vectors.
    hidden_channels : int
    out_channels : int or None
        Node size after the last update (``hidden_channels`` when None).
    n_update_layers : int
    n_atom_types : int
    dropout_ratio : float
        Dropout inside each update (training only; skipped when <= 0).
    concat_hidden : bool
    weight_tying : bool
    activation : callable
        Readout activations (identity by default).
    n_edge_types : int
        Kept for the signature (GIN reads a single adjacency).

    Notes
    -----
    ``first_mlp`` is built and saved as in Chainer Chemistry but not used by the dense model,
    so its first layer's W stays uninitialized.
    """

    def __init__(self, out_dim: int, node_embedding: bool = False, hidden_channels: int = 16,
                 out_channels: int | None = None, n_update_layers: int = 4,
                 n_atom_types: int = MAX_ATOMIC_NUM, dropout_ratio: float = 0.5,
                 concat_hidden: bool = False, weight_tying: bool = False,
                 activation: Callable = F.identity, n_edge_types: int = 4):
        super().__init__()
        n_message_layer = 1 if weight_tying else n_update_layers
        n_readout_layer = n_update_layers if concat_hidden else 1
        if out_channels is None:
            out_channels = hidden_channels
        with self.init_scope():
            self.embed = EmbedAtomID(out_size=hidden_channels, in_size=n_atom_types)
            self.first_mlp = GraphMLP(channels=[hidden_channels, hidden_channels],
                                      activation=F.relu)
            self.update_layers = ChainList(*[
                GINUpdate(hidden_channels=hidden_channels, dropout_ratio=dropout_ratio,
                          out_channels=out_channels if i == n_message_layer - 1
                          else hidden_channels)
                for i in range(n_message_layer)])
            self.readout_layers = ChainList(*[
                GGNNReadout(out_dim=out_dim, in_channels=hidden_channels * 2,
                            activation=activation, activation_agg=activation)
                for _ in range(n_readout_layer)])
        self.node_embedding = node_embedding
        self.out_dim = out_dim
        self.hidden_channels = hidden_channels
        self.n_update_layers = n_update_layers
        self.n_message_layers = n_message_layer
        self.n_readout_layer = n_readout_layer
        self.dropout_ratio = dropout_ratio
        self.concat_hidden = concat_hidden
        self.weight_tying = weight_tying
        self.n_edge_types = n_edge_types

    def forward(self, atom_array, adj, is_real_node=None):
        """Compute the graph vectors (or node features with node_embedding).

        Parameters
        ----------
        atom_array : array, shape (minibatch, N) int32, or (minibatch, N, hidden_channels) float
        adj : array or Variable, shape (minibatch, N, N)
            GINPreprocessor's adjacency.
        is_real_node : array or None, shape (minibatch, N)

        Returns
        -------
        Variable, shape (minibatch, out_dim) (``n_update_layers * out_dim`` with concat_hidden)
        """
        check_graph_inputs("GIN", atom_array, adj)
        atom_array, is_real_node = real_atoms("GIN", atom_array, is_real_node)
        h = self.embed(atom_array) if is_atom_ids("GIN", atom_array) else atom_array
        h0 = h
        g_list = []
        for step in range(self.n_update_layers):
            h = self.update_layers[0 if self.weight_tying else step](h, adj)
            # as in Chainer Chemistry: no ReLU after the last *message layer*
            if step != self.n_message_layers - 1:
                h = F.relu(h)
            if self.concat_hidden:
                g_list.append(self.readout_layers[step](h, h0, is_real_node))
        if self.node_embedding:
            return h
        if self.concat_hidden:
            return F.concat(g_list, axis=1)
        return self.readout_layers[0](h, h0, is_real_node)
