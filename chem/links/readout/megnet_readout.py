"""MEGNetReadout: Set2Set over the atoms and over the bonds, with the global state, to one vector."""
from collections.abc import Callable

from kusari import functions as F
from kusari.chem.functions.activation.megnet_softplus import megnet_softplus
from kusari.chem.links.readout.set2set import Set2Set
from kusari.link import Chain
from kusari.links import Linear


class MEGNetReadout(Chain):
    """``activation(linear([set2set_atom(atoms), set2set_pair(pairs), global]))``.

    Parameters
    ----------
    out_dim : int
    in_channels : int
        Atom and bond feature size (not None).
    n_layers : int
        LSTM layers of each Set2Set.
    processing_steps : int
        Set2Set steps (> 0).
    dropout_ratio : float
        Dropout before the linear layer (training only; skipped when <= 0).
    activation : callable
    """

    def __init__(self, out_dim: int = 32, in_channels: int = 32, n_layers: int = 1,
                 processing_steps: int = 3, dropout_ratio: float = -1,
                 activation: Callable = megnet_softplus):
        super().__init__()
        if processing_steps <= 0:
            raise ValueError(f"MEGNetReadout: processing_steps must be positive, "
                             f"got {processing_steps}")
        self.processing_steps = processing_steps
        self.dropout_ratio = dropout_ratio
        self.activation = activation
        with self.init_scope():
            self.set2set_for_atom = Set2Set(in_channels=in_channels, n_layers=n_layers)
            self.set2set_for_pair = Set2Set(in_channels=in_channels, n_layers=n_layers)
            self.linear = Linear(None, out_dim)

    def forward(self, atoms_feat, pair_feat, global_feat):
        """Read out one vector per graph.

        Parameters
        ----------
        atoms_feat : Variable, shape (minibatch, max_atoms, in_channels), zero-padded
        pair_feat : Variable, shape (minibatch, max_pairs, in_channels), zero-padded
        global_feat : Variable, shape (minibatch, global_ch)

        Returns
        -------
        Variable, shape (minibatch, out_dim)
        """
        self.set2set_for_atom.reset_state()
        self.set2set_for_pair.reset_state()
        for _ in range(self.processing_steps):
            a_r = self.set2set_for_atom(atoms_feat)
            p_r = self.set2set_for_pair(pair_feat)
        h = F.concat((a_r, p_r, global_feat), axis=1)
        if self.dropout_ratio > 0.0:
            h = F.dropout(h, ratio=self.dropout_ratio)
        return self.activation(self.linear(h))
