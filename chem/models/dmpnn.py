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

import numpy

from kusari import backend
from kusari import functions as F
from kusari.link import Chain
from kusari.links import Linear
from kusari.variable import Variable


def _array(x):
    return x.array if isinstance(x, Variable) else x


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

    @staticmethod
    def graph(atom_features, bond_features, is_real_node=None) -> tuple:
        """The batch's atoms and directed edges as index arrays (chemprop's BatchMolGraph).

        Returns
        -------
        tuple
            ``atom_rows`` (n_atoms,) rows of the (minibatch * N) flattened atoms, ``molecule``
            (n_atoms,) each atom's molecule, ``src``/``dst`` (n_edges,) atom indices of each
            directed edge, ``pairs`` the (b, i, j) of each edge, ``rev`` (n_edges,) the reverse edge.
        """
        x, e = _array(atom_features), _array(bond_features)
        xp = backend.get_array_module(x)
        mb, n = x.shape[:2]
        real = (xp.any(x != 0, axis=2) if is_real_node is None else _array(is_real_node) != 0)
        atom_rows = xp.flatnonzero(real.reshape(-1))
        compact = xp.full(mb * n, -1, dtype=numpy.int64)
        compact[atom_rows] = xp.arange(len(atom_rows))
        b, i, j = xp.nonzero(xp.any(e != 0, axis=1))
        keys = (b * n + i) * n + j                 # ascending (nonzero's C order)
        reverse_keys = (b * n + j) * n + i
        rev = xp.searchsorted(keys, reverse_keys)
        src, dst = compact[b * n + i], compact[b * n + j]
        if len(keys) and ((rev >= len(keys))
                          | (keys[xp.minimum(rev, len(keys) - 1)] != reverse_keys)).any():
            raise ValueError("DMPNN: bond_features must be symmetric (a bond's features at (i, j) and "
                             "(j, i)), as ChempropPreprocessor gives them")
        if len(src) and ((src < 0) | (dst < 0)).any():
            raise ValueError("DMPNN: a bond joins a padding atom (all-zero atom features, or 0 in "
                             "is_real_node)")
        return atom_rows, atom_rows // n, src, dst, (b, i, j), rev

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
        if x.ndim != 3 or e.ndim != 4 or e.shape[0] != x.shape[0] or e.shape[2:] != (x.shape[1],) * 2:
            raise ValueError(f"DMPNN: atom_features must be (minibatch, N, atom_fdim) and bond_features "
                             f"(minibatch, bond_fdim, N, N), as ChempropPreprocessor gives them; got "
                             f"{tuple(x.shape)} and {tuple(e.shape)}")
        if numpy.dtype(x.dtype).kind != "f":
            raise TypeError(f"DMPNN: atom_features must be float features (ChempropPreprocessor's), "
                            f"got dtype {x.dtype}")
        mb, n, fdim = x.shape
        atom_rows, molecule, src, dst, (b, i, j), rev = self.graph(x, e, is_real_node)
        xp = backend.get_array_module(atom_rows)
        n_atoms = len(atom_rows)
        v = F.get_item(F.reshape(x, (mb * n, fdim)), atom_rows)                  # (n_atoms, atom_fdim)
        edges = F.get_item(F.transpose(e, (0, 2, 3, 1)), (b, i, j))             # (n_edges, bond_fdim)
        h0 = self.W_i(F.concat((F.get_item(v, src), edges), axis=1))
        h = self.activation(h0)
        zeros = xp.zeros((n_atoms, self.hidden_channels), dtype=h0.dtype)
        for _ in range(1, self.n_update_layers):
            incoming = F.scatter_add(zeros, dst, h)                             # sum over u of h_uv
            m = F.get_item(incoming, src) - F.get_item(h, rev)
            h = self._dropout(self.activation(h0 + self.W_h(m)))
        incoming = F.scatter_add(zeros, dst, h)
        h_atoms = self._dropout(self.activation(self.W_o(F.concat((v, incoming), axis=1))))
        graphs = F.scatter_add(xp.zeros((mb, self.hidden_channels), dtype=h0.dtype), molecule, h_atoms)
        return graphs / h0.dtype.type(self.aggregation_norm)
