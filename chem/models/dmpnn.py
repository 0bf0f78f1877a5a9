"""DMPNN: directed message passing on bonds (Yang et al., J. Chem. Inf. Model. 59, 3370 (2019)).

The architecture of chemprop 2.3.1's default ``chemprop train`` (its ``BondMessagePassing`` with
``NormAggregation``): every bond gives two directed edges ``v -> w``, whose hidden state starts as
``h0_vw = W_i [x_v, e_vw]`` (no bias) and, for ``depth - 1`` steps, becomes
``relu(h0_vw + W_h m_vw)`` with ``m_vw`` the sum of the states of the edges entering ``v``
except the reverse edge ``w -> v``. An atom then reads the edges entering it,
``h_v = relu(W_o [x_v, sum_u h_uv])``, and a molecule is the sum of its atoms' vectors divided by
``aggregation_norm`` (100). chemprop's FFN head is ``MLP(out_dim, hidden_dim, n_layers=2)``.
"""
from collections.abc import Callable

from kusari import functions as F
from kusari.chem.functions import take_rows
from kusari.chem.models._graph import check_pair_inputs, molecule_graph, segment_sum
from kusari.link import Chain
from kusari.links import Linear

class DMPNN(Chain):
    """Directed message passing network on bonds, with chemprop's defaults.

    Takes :class:`kusari.chem.dataset.preprocessors.ChempropPreprocessor`'s arrays batched by
    ``concat_mols``. Parameter names are chemprop's (``W_i``, ``W_h``, ``W_o``), with the same
    (out, in) layout as torch's ``Linear.weight``.

    Parameters
    ----------
    hidden_channels : int
        Message hidden size (chemprop: ``--message-hidden-dim`` 300); the output size too.
    n_update_layers : int
        chemprop's ``--depth`` (3): ``depth - 1`` message steps after the initial edge states.
    aggregation_norm : float
        The molecule vector is the atoms' sum divided by it (chemprop's ``norm`` aggregation, 100).
    bias : bool
        Biases in ``W_i`` and ``W_h`` (chemprop's ``--message-bias``, off).
    dropout_ratio : float
        Dropout after each update and after ``W_o`` (chemprop's ``--dropout``, 0).
    activation : callable
    """

    def __init__(self, hidden_channels: int = 300, n_update_layers: int = 3,
                 aggregation_norm: float = 100.0, bias: bool = False, dropout_ratio: float = 0.0,
                 activation: Callable = F.relu):
        super().__init__()
        if n_update_layers < 1:
            raise ValueError(f"DMPNN: n_update_layers (chemprop's depth) must be >= 1, got {n_update_layers}")
        if aggregation_norm <= 0:
            raise ValueError(f"DMPNN: aggregation_norm must be > 0, got {aggregation_norm}")
        with self.init_scope():
            self.W_i = Linear(None, hidden_channels, nobias=not bias)
            self.W_h = Linear(hidden_channels, hidden_channels, nobias=not bias)
            self.W_o = Linear(None, hidden_channels)
        self.hidden_channels = hidden_channels
        self.n_update_layers = n_update_layers
        self.aggregation_norm = aggregation_norm
        self.dropout_ratio = dropout_ratio
        self.activation = activation

    def _dropout(self, h):
        return F.dropout(h, ratio=self.dropout_ratio) if self.dropout_ratio > 0 else h

    def forward(self, atom_features, bond_features, is_real_node=None):
        """Molecule vectors.

        Parameters
        ----------
        atom_features : array or Variable, shape (minibatch, N, atom_fdim) float
            ChempropPreprocessor's atom features (all-zero rows are padding).
        bond_features : array or Variable, shape (minibatch, bond_fdim, N, N) float
            Its per-pair bond features (zero where two atoms share no bond).
        is_real_node : array or None, shape (minibatch, N)
            1 for real atoms; None reads padding from the all-zero atom rows.

        Returns
        -------
        Variable, shape (minibatch, hidden_channels)
        """
        x, e = atom_features, bond_features
        check_pair_inputs("DMPNN", x, e)
        mb, n, fdim = x.shape
        atom_rows, molecule, src, dst, (b, i, j), rev = molecule_graph("DMPNN", x, e, is_real_node)
        n_atoms = len(atom_rows)
        v = F.get_item(F.reshape(x, (mb * n, fdim)), atom_rows)                  # (n_atoms, atom_fdim)
        edges = F.get_item(F.transpose(e, (0, 2, 3, 1)), (b, i, j))             # (n_edges, bond_fdim)
        h0 = self.W_i(F.concat((F.get_item(v, src), edges), axis=1))
        h = self.activation(h0)
        for _ in range(1, self.n_update_layers):
            incoming = segment_sum(h, dst, n_atoms)                             # sum over u of h_uv
            m = F.get_item(incoming, src) - take_rows(h, rev)   # rev is a permutation: no add.at
            h = self._dropout(self.activation(h0 + self.W_h(m)))
        incoming = segment_sum(h, dst, n_atoms)
        h_atoms = self._dropout(self.activation(self.W_o(F.concat((v, incoming), axis=1))))
        return segment_sum(h_atoms, molecule, mb) / h0.dtype.type(self.aggregation_norm)
