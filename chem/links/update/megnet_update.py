"""MEGNetUpdate: one MEGNet block updating bonds, then atoms, then the graph state (Chen et al., 2019)."""
from collections.abc import Callable, Sequence

from kusari import backend
from kusari import functions as F
from kusari.chem.functions.activation.megnet_softplus import megnet_softplus
from kusari.link import Chain, ChainList
from kusari.links import Linear


class DenseLayer(Chain):
    """Linear layers, each followed by the activation.

    Parameters
    ----------
    hidden_dim : sequence of int
        Output size of each layer.
    activation : callable
    """

    def __init__(self, hidden_dim: Sequence[int] = (64, 32),
                 activation: Callable = megnet_softplus):
        super().__init__()
        self.n_layers = len(hidden_dim)
        self.activation = activation
        with self.init_scope():
            self.update_layer = ChainList(*[Linear(None, d) for d in hidden_dim])

    def forward(self, v):
        """v: (n, ch) -> (n, hidden_dim[-1])."""
        for layer in self.update_layer:
            v = self.activation(layer(v))
        return v


class UpdateLayer(Chain):
    """Linear layers with the activation between them (none after the last).

    Parameters
    ----------
    hidden_dim : sequence of int
    activation : callable
    """

    def __init__(self, hidden_dim: Sequence[int] = (64, 64, 32),
                 activation: Callable = megnet_softplus):
        super().__init__()
        self.n_layers = len(hidden_dim)
        self.activation = activation
        with self.init_scope():
            self.update_layer = ChainList(*[Linear(None, d) for d in hidden_dim])

    def forward(self, v):
        """v: (n, ch) -> (n, hidden_dim[-1])."""
        for i, layer in enumerate(self.update_layer):
            v = layer(v)
            if i != self.n_layers - 1:
                v = self.activation(v)
        return v


def _counts(idx, n: int, like):
    """How often each of 0 .. n-1 occurs in idx, as a (n, 1) array of like's dtype."""
    xp = backend.get_array_module(idx)
    return xp.bincount(idx, minlength=n)[:, None].astype(like.dtype)


def get_mean_feat(feat, idx, out_shape, xp):
    """Mean of the rows of feat that share an index (average pooling per graph).

    Parameters
    ----------
    feat : Variable, shape (n, ch)
    idx : int array, shape (n,)
        Target row of each row of feat.
    out_shape : tuple
        (n_targets, ch).
    xp : module
        numpy or cupy.

    Returns
    -------
    Variable, shape out_shape (NaN rows for targets that no row points to, as upstream)
    """
    sums = F.scatter_add(xp.zeros(out_shape, dtype=feat.dtype), idx, feat)
    return sums / xp.broadcast_to(_counts(idx, out_shape[0], feat), out_shape)


class MEGNetUpdate(Chain):
    """One MEGNet block: dense layers, then bond, atom and global updates with skip connections.

    Parameters
    ----------
    dim_for_dense : sequence of 2 int
        Sizes of the dense layers applied to each input first.
    dim_for_update : sequence of 3 int
        Sizes of the update MLPs.
    dropout_ratio : float
        Dropout on the outputs (training only; skipped when <= 0).
    activation : callable
    skip_intermediate : bool
        Skip connections from the dense outputs (True, the first block) or from the inputs.
    """

    def __init__(self, dim_for_dense: Sequence[int] = (64, 32),
                 dim_for_update: Sequence[int] = (64, 64, 32), dropout_ratio: float = -1,
                 activation: Callable = megnet_softplus, skip_intermediate: bool = True):
        super().__init__()
        if len(dim_for_dense) != 2:
            raise ValueError(f"MEGNetUpdate: dim_for_dense must have 2 elements, got "
                             f"{list(dim_for_dense)}")
        if len(dim_for_update) != 3:
            raise ValueError(f"MEGNetUpdate: dim_for_update must have 3 elements, got "
                             f"{list(dim_for_update)}")
        self.dropout_ratio = dropout_ratio
        with self.init_scope():
            self.dense_for_atom = DenseLayer(dim_for_dense, activation)
            self.dense_for_pair = DenseLayer(dim_for_dense, activation)
            self.dense_for_global = DenseLayer(dim_for_dense, activation)
            self.update_for_atom = UpdateLayer(dim_for_update, activation)
            self.update_for_pair = UpdateLayer(dim_for_update, activation)
            self.update_for_global = UpdateLayer(dim_for_update, activation)
        self.skip_intermediate = skip_intermediate

    def forward(self, atoms_feat, pair_feat, global_feat, atom_idx, pair_idx, start_idx,
                end_idx):
        """Update the atom, bond and global features of a batch of graphs.

        Parameters
        ----------
        atoms_feat : Variable, shape (n_atoms, atom_ch)
            Atoms of all graphs stacked.
        pair_feat : Variable, shape (n_pairs, pair_ch)
        global_feat : Variable, shape (minibatch, global_ch)
        atom_idx : int array, shape (n_atoms,)
            Graph of each atom.
        pair_idx : int array, shape (n_pairs,)
            Graph of each bond.
        start_idx, end_idx : int arrays, shape (n_pairs,)
            The bond's atoms (rows of atoms_feat).

        Returns
        -------
        (Variable (n_atoms, d), Variable (n_pairs, d), Variable (minibatch, d)) with
        d = dim_for_update[-1]
        """
        xp = self.xp
        a_f_d = self.dense_for_atom(atoms_feat)
        p_f_d = self.dense_for_pair(pair_feat)
        g_f_d = self.dense_for_global(global_feat)

        update_p = self.update_for_pair(F.concat(
            (p_f_d, a_f_d[start_idx], a_f_d[end_idx], g_f_d[pair_idx]), axis=1))

        # each atom takes the mean of the updated bonds it belongs to, at either end
        n_atoms = a_f_d.shape[0]
        zero = xp.zeros((n_atoms, update_p.shape[1]), dtype=update_p.dtype)
        edge_sum = F.scatter_add(zero, start_idx, update_p) + F.scatter_add(zero, end_idx, update_p)
        degree = _counts(start_idx, n_atoms, update_p) + _counts(end_idx, n_atoms, update_p)
        mean_edge = edge_sum / xp.broadcast_to(degree, edge_sum.shape)
        update_a = self.update_for_atom(F.concat((a_f_d, mean_edge, g_f_d[atom_idx]), axis=1))

        out_shape = g_f_d.shape
        update_g = self.update_for_global(F.concat(
            (get_mean_feat(update_a, atom_idx, out_shape, xp),
             get_mean_feat(update_p, pair_idx, out_shape, xp), g_f_d), axis=1))

        if self.skip_intermediate:
            skips = (a_f_d, p_f_d, g_f_d)
        else:
            # later blocks: the inputs must already have the updated size
            skips = (atoms_feat, pair_feat, global_feat)
        new = [u + s for u, s in zip((update_a, update_p, update_g), skips)]
        if self.dropout_ratio > 0.0:
            new = [F.dropout(v, ratio=self.dropout_ratio) for v in new]
        return tuple(new)
