"""RelGCN: Relational Graph Convolutional Network (Schlichtkrull et al., 2017)."""
from collections.abc import Sequence

from kusari import backend
from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.connection.embed_atom_id import EmbedAtomID
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.chem.links.readout.ggnn_readout import GGNNReadout
from kusari.chem.links.update.relgcn_update import RelGCNUpdate
from kusari.chem.models._inputs import check_graph_inputs, is_atom_ids, real_atoms
from kusari.link import Chain, ChainList


def rescale_adj(adj):
    """Divide each column of the adjacency by its neighbour count over all edge types.

    Parameters
    ----------
    adj : array or Variable, shape (minibatch, n_edge_types, N, N)

    Returns
    -------
    Variable, shape (minibatch, n_edge_types, N, N); columns without neighbours stay zero
    """
    num_neighbors = F.sum(adj, axis=(1, 2))  # (minibatch, N)
    xp = backend.get_array_module(num_neighbors.array)
    has_neighbors = num_neighbors.array != 0
    ones = xp.ones(num_neighbors.shape, dtype=num_neighbors.dtype)
    inv = 1 / F.where(has_neighbors, num_neighbors, ones)
    return adj * F.broadcast_to(inv[:, None, None, :], adj.shape)


class RelGCN(Chain):
    """Relational GCN: per-edge-type convolutions with tanh, a tanh-gated readout.

    Parameters
    ----------
    out_dim : int
    hidden_channels : None, int or list of int
        Node sizes ``[embedding, layer 1, ...]``; None: [16, 128, 64]; an int needs
        ``n_update_layers`` and gives ``[hidden_channels] * n_update_layers``.
    n_update_layers : int or None
    n_atom_types : int
    n_edge_types : int
    input_type : {'int', 'float'}
        Atom IDs (embedded) or float features (a GraphLinear embedding).
    scale_adj : bool
        Normalize the adjacency with ``rescale_adj``.
    """

    def __init__(self, out_dim: int = 64,
                 hidden_channels: None | int | Sequence[int] = None,
                 n_update_layers: int | None = None, n_atom_types: int = MAX_ATOMIC_NUM,
                 n_edge_types: int = 4, input_type: str = "int", scale_adj: bool = False):
        super().__init__()
        if hidden_channels is None:
            hidden_channels = [16, 128, 64]
        elif isinstance(hidden_channels, int):
            if not isinstance(n_update_layers, int):
                raise ValueError("RelGCN: n_update_layers must be an int when hidden_channels is "
                                 f"an int, got {n_update_layers!r}")
            hidden_channels = [hidden_channels] * n_update_layers
        if input_type not in ("int", "float"):
            raise ValueError(f"RelGCN: input_type must be 'int' or 'float', got {input_type!r}")
        with self.init_scope():
            if input_type == "int":
                self.embed = EmbedAtomID(out_size=hidden_channels[0], in_size=n_atom_types)
            else:
                self.embed = GraphLinear(None, hidden_channels[0])
            self.rgcn_convs = ChainList(*[
                RelGCNUpdate(hidden_channels[i], hidden_channels[i + 1], n_edge_types)
                for i in range(len(hidden_channels) - 1)])
            self.rgcn_readout = GGNNReadout(out_dim=out_dim, in_channels=hidden_channels[-1],
                                            nobias=True, activation=F.tanh)
        self.n_edge_types = n_edge_types
        self.input_type = input_type
        self.scale_adj = scale_adj

    def forward(self, x, adj, is_real_node=None):
        """Compute the graph vectors.

        Parameters
        ----------
        x : array, shape (minibatch, N) int32 (input_type 'int') or (minibatch, N, ch) float
        adj : array or Variable, shape (minibatch, n_edge_types, N, N)
            RelGCNPreprocessor's edge-typed adjacency.
        is_real_node : array or None, shape (minibatch, N)
            1 for real atoms, 0 for padding (derived from ``concat_mols``' -1 IDs when None).

        Returns
        -------
        Variable, shape (minibatch, out_dim)
        """
        check_graph_inputs("RelGCN", x, adj, self.n_edge_types)
        given = "int" if is_atom_ids("RelGCN", x) else "float"
        if given != self.input_type:
            raise TypeError(f"RelGCN: built with input_type={self.input_type!r} but x has dtype "
                            f"{x.dtype} ({given!r} input)")
        x, is_real_node = real_atoms("RelGCN", x, is_real_node)
        h = self.embed(x)
        if self.scale_adj:
            adj = rescale_adj(adj)
        for rgcn_conv in self.rgcn_convs:
            h = F.tanh(rgcn_conv(h, adj))
        return self.rgcn_readout(h, is_real_node=is_real_node)
