"""MEGNet: MatErials Graph Network for molecules (Chen et al., 2019)."""
from collections.abc import Callable

from kusari import backend
from kusari import functions as F
from kusari.chem.functions.activation.megnet_softplus import megnet_softplus
from kusari.chem.links.readout.megnet_readout import MEGNetReadout
from kusari.chem.links.update.megnet_update import MEGNetUpdate
from kusari.link import Chain, ChainList


def reshaped_feat(feat, idx):
    """Stacked rows to a zero-padded batch: row r goes to graph ``idx[r]``.

    Parameters
    ----------
    feat : Variable, shape (n, ch)
    idx : int array, shape (n,)
        Graph of each row, 0 .. max(idx).

    Returns
    -------
    Variable, shape (max(idx) + 1, largest graph's row count, ch)
    """
    xp = backend.get_array_module(idx)
    return F.pad_sequence([feat[idx == i] for i in range(int(xp.max(idx)) + 1)])


class MEGNet(Chain):
    """MEGNet: MEGNetUpdate blocks on atoms, bonds and the global state, then MEGNetReadout.

    Widths are fixed as upstream: dense [64, 32], update [64, 64, 32], readout input 32.

    Parameters
    ----------
    out_dim : int
    n_update_layers : int
        Number of MEGNetUpdate blocks (> 0).
    dropout_ratio : float
        Negative: no dropout.
    activation : callable
    """

    def __init__(self, out_dim: int = 32, n_update_layers: int = 3, dropout_ratio: float = -1,
                 activation: Callable = megnet_softplus):
        super().__init__()
        if n_update_layers <= 0:
            raise ValueError(f"MEGNet: n_update_layers must be a positive integer, "
                             f"got {n_update_layers}")
        self.n_update_layers = n_update_layers
        with self.init_scope():
            self.update_layers = ChainList(*[
                MEGNetUpdate(dim_for_dense=[64, 32], dim_for_update=[64, 64, 32],
                             dropout_ratio=dropout_ratio, activation=activation,
                             skip_intermediate=(i == 0))
                for i in range(n_update_layers)])
            self.readout = MEGNetReadout(out_dim=out_dim, in_channels=32, n_layers=1,
                                         processing_steps=3, dropout_ratio=dropout_ratio,
                                         activation=activation)

    def forward(self, atoms_feat, pair_feat, global_feat, *args):
        """Compute the graph vectors.

        Parameters
        ----------
        atoms_feat : array or Variable, shape (n_atoms, atom_ch)
        pair_feat : array or Variable, shape (n_pairs, pair_ch)
        global_feat : array or Variable, shape (minibatch, global_ch)
        *args : int arrays
            ``atom_idx`` (n_atoms,), ``pair_idx`` (n_pairs,), ``start_idx`` (n_pairs,),
            ``end_idx`` (n_pairs,), as megnet_converter gives them.

        Returns
        -------
        Variable, shape (minibatch, out_dim)
        """
        self._check_inputs(atoms_feat, pair_feat, global_feat, args)
        a_f, p_f, g_f = atoms_feat, pair_feat, global_feat
        for update in self.update_layers:
            a_f, p_f, g_f = update(a_f, p_f, g_f, *args)
        atom_idx, pair_idx = args[:2]
        return self.readout(reshaped_feat(a_f, atom_idx), reshaped_feat(p_f, pair_idx), g_f)

    @staticmethod
    def _check_inputs(atoms_feat, pair_feat, global_feat, args) -> None:
        feats = (atoms_feat, pair_feat, global_feat)
        given = [tuple(x.shape) for x in (*feats, *args)]
        expected = "(n_atoms, atom_ch), (n_pairs, pair_ch), (minibatch, global_ch)"
        if len(args) == 4 and all(x.ndim == 2 for x in feats):
            n_atoms, n_pairs = atoms_feat.shape[0], pair_feat.shape[0]
            index_shapes = [(n_atoms,), (n_pairs,), (n_pairs,), (n_pairs,)]
            if given[3:] == index_shapes:
                return
            expected += ", " + ", ".join(map(str, index_shapes))
        else:
            expected += ", (n_atoms,), (n_pairs,), (n_pairs,), (n_pairs,)"
        raise ValueError(f"MEGNet: expected the megnet preprocessor's inputs through "
                         f"megnet_converter, of shapes {expected}; got {', '.join(map(str, given))}")
