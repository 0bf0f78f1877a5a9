"""SchNet: continuous-filter convolutions on interatomic distances (Schütt et al., 2017)."""
from kusari import functions as F
from kusari.chem.config import MAX_ATOMIC_NUM
from kusari.chem.links.connection.embed_atom_id import EmbedAtomID
from kusari.chem.links.readout.schnet_readout import SchNetReadout
from kusari.chem.links.update.schnet_update import SchNetUpdate
from kusari.chem.models._inputs import check_graph_inputs, is_atom_ids, real_atoms
from kusari.link import Chain, ChainList


class SchNet(Chain):
    """SchNet: atom embedding, interaction blocks on the distance matrix, per-atom readout summed.

    Parameters
    ----------
    out_dim : int
    hidden_channels : int
    n_update_layers : int
    readout_hidden_dim : int
    n_atom_types : int
    concat_hidden : bool
        Feed the readout with the node features of all blocks concatenated.
    num_rbf : int
    radius_resolution : float
    gamma : float
        Radial basis parameters of CFConv.
    """

    def __init__(self, out_dim: int = 1, hidden_channels: int = 64, n_update_layers: int = 3,
                 readout_hidden_dim: int = 32, n_atom_types: int = MAX_ATOMIC_NUM,
                 concat_hidden: bool = False, num_rbf: int = 300,
                 radius_resolution: float = 0.1, gamma: float = 10.0):
        super().__init__()
        with self.init_scope():
            self.embed = EmbedAtomID(out_size=hidden_channels, in_size=n_atom_types)
            self.update_layers = ChainList(*[
                SchNetUpdate(hidden_channels, num_rbf=num_rbf,
                             radius_resolution=radius_resolution, gamma=gamma)
                for _ in range(n_update_layers)])
            self.readout_layer = SchNetReadout(out_dim, in_channels=None,
                                               hidden_channels=readout_hidden_dim)
        self.out_dim = out_dim
        self.hidden_channels = hidden_channels
        self.readout_hidden_dim = readout_hidden_dim
        self.n_update_layers = n_update_layers
        self.concat_hidden = concat_hidden

    def forward(self, atom_features, dist_features, is_real_node=None):
        """Compute the graph vectors.

        Parameters
        ----------
        atom_features : array, shape (minibatch, N) int32
        dist_features : array or Variable, shape (minibatch, N, N)
            Interatomic distances (SchNetPreprocessor's).
        is_real_node : array or None, shape (minibatch, N)
            1 for real atoms, 0 for padding (derived from ``concat_mols``' -1 IDs when None):
            padding atoms, at distance 0 from every atom, send no filter message and are not read out.

        Returns
        -------
        Variable, shape (minibatch, out_dim)
        """
        check_graph_inputs("SchNet", atom_features, dist_features)
        if not is_atom_ids("SchNet", atom_features) or atom_features.ndim != 2:
            raise TypeError(f"SchNet: atom_features must be (minibatch, N) int32 atom IDs, got "
                            f"shape {tuple(atom_features.shape)} dtype {atom_features.dtype}")
        atom_features, is_real_node = real_atoms("SchNet", atom_features, is_real_node)
        x = self.embed(atom_features)
        hs = []
        for update in self.update_layers:
            x = update(x, dist_features, is_real_node=is_real_node)
            hs.append(x)
        if self.concat_hidden:
            x = F.concat(hs, axis=2)
        return self.readout_layer(x, is_real_node=is_real_node)
