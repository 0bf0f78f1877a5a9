"""RSGCN: Renormalized Spectral Graph Convolutional Network (Kipf & Welling's GCN)."""
from collections.abc import Callable

from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.connection.embed_atom_id import EmbedAtomID
from kusari.chem.links.normalization.graph_batch_normalization import (
    GraphBatchNormalization,
)
from kusari.chem.links.readout.general_readout import GeneralReadout
from kusari.chem.links.update.rsgcn_update import RSGCNUpdate
from kusari.chem.models._inputs import check_graph_inputs, is_atom_ids, real_atoms
from kusari.link import Chain, ChainList, Link
from kusari.variable import Variable


class RSGCN(Chain):
    """Graph convolutions ``adj @ h @ W`` with optional batch norm, dropout and ReLU, then a readout.

    Parameters
    ----------
    out_dim : int
        Node size after the last convolution (and graph vector size with the sum readout).
    hidden_channels : int
    n_update_layers : int
    n_atom_types : int
    use_batch_norm : bool
        GraphBatchNormalization after each convolution (``bnorms``).
    readout : callable or None
        ``GeneralReadout()`` (sum over nodes) when None; registered as a child when a Link.
    dropout_ratio : float
        Dropout after each convolution (training only; skipped when <= 0).
    """

    def __init__(self, out_dim: int, hidden_channels: int = 32, n_update_layers: int = 4,
                 n_atom_types: int = MAX_ATOMIC_NUM, use_batch_norm: bool = False,
                 readout: Callable | None = None, dropout_ratio: float = 0.5):
        super().__init__()
        in_dims = [hidden_channels] * n_update_layers
        out_dims = [hidden_channels] * (n_update_layers - 1) + [out_dim]
        if readout is None:
            readout = GeneralReadout()
        with self.init_scope():
            self.embed = EmbedAtomID(out_size=hidden_channels, in_size=n_atom_types)
            self.gconvs = ChainList(*[RSGCNUpdate(i, o) for i, o in zip(in_dims, out_dims)])
            if use_batch_norm:
                self.bnorms = ChainList(*[GraphBatchNormalization(o) for o in out_dims])
            if isinstance(readout, Link):
                self.readout = readout
        if not use_batch_norm:
            self.bnorms = [None] * n_update_layers
        if not isinstance(readout, Link):
            self.readout = readout
        self.out_dim = out_dim
        self.hidden_channels = hidden_channels
        self.n_update_layers = n_update_layers
        self.dropout_ratio = dropout_ratio

    def forward(self, atom_array, adj, is_real_node=None, **kwargs):
        """Compute the graph vectors.

        Parameters
        ----------
        atom_array : array, shape (minibatch, N) int32, or (minibatch, N, hidden_channels) float
        adj : array or Variable, shape (minibatch, N, N)
            RSGCNPreprocessor's normalized adjacency; no gradient flows into it.
        is_real_node : array or None, shape (minibatch, N)
            1 for real atoms, 0 for padding (derived from ``concat_mols``' -1 IDs when None); given
            to the readout, which must then accept it.

        Returns
        -------
        Variable, shape (minibatch, out_dim) with the default readout
        """
        check_graph_inputs("RSGCN", atom_array, adj)
        atom_array, is_real_node = real_atoms("RSGCN", atom_array, is_real_node)
        h = self.embed(atom_array) if is_atom_ids("RSGCN", atom_array) else atom_array
        # Chainer Chemistry treats the adjacency as a constant
        w_adj = adj.array if isinstance(adj, Variable) else adj
        for i, (gconv, bnorm) in enumerate(zip(self.gconvs, self.bnorms)):
            h = gconv(h, w_adj)
            if bnorm is not None:
                h = bnorm(h, is_real_node=is_real_node)
            if self.dropout_ratio > 0.0:
                h = F.dropout(h, ratio=self.dropout_ratio)
            if i < self.n_update_layers - 1:
                h = F.relu(h)
        return self.readout(h) if is_real_node is None else self.readout(h, is_real_node=is_real_node)
