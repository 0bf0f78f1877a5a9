"""CGCNN: Crystal Graph Convolutional Neural Network (Xie and Grossman, 2018)."""
from kusari.chem.links.readout.cgcnn_readout import CGCNNReadout
from kusari.chem.links.update.cgcnn_update import CGCNNUpdate, check_crystal_graph
from kusari.link import Chain, ChainList
from kusari.links import Linear


class CGCNN(Chain):
    """An embedding of the site features, ``n_update_layers`` CGCNNUpdate layers, CGCNNReadout.

    Parameters
    ----------
    out_dim : int
    n_update_layers : int
    n_atom_features : int
        Width of the embedded site features.
    """

    def __init__(self, out_dim: int = 128, n_update_layers: int = 3, n_atom_features: int = 64):
        super().__init__()
        with self.init_scope():
            self.atom_feature_embedding = Linear(None, n_atom_features)
            self.crystal_convs = ChainList(*[CGCNNUpdate(n_atom_features)
                                             for _ in range(n_update_layers)])
            self.readout = CGCNNReadout(out_dim=out_dim)
        self.out_dim = out_dim
        self.n_update_layers = n_update_layers
        self.n_atom_features = n_atom_features

    def forward(self, atom_feat, nbr_feat, atom_idx, feat_idx):
        """Compute one vector per crystal (the arguments are cgcnn_converter's first four outputs).

        Parameters
        ----------
        atom_feat : Variable or array, shape (n_site, n_site_feat)
            Site features of every crystal of the batch, stacked.
        nbr_feat : Variable or array, shape (n_site, n_nbr, n_nbr_feat)
            Bond features of each site's neighbors.
        atom_idx : sequence of B int arrays
            Rows of each crystal.
        feat_idx : int array, shape (n_site, n_nbr)
            Row of each neighbor.

        Returns
        -------
        Variable, shape (B, out_dim)
        """
        check_crystal_graph("CGCNN", atom_feat, nbr_feat, feat_idx)
        h = self.atom_feature_embedding(atom_feat)
        for conv in self.crystal_convs:
            h = conv(h, nbr_feat, feat_idx)
        return self.readout(h, atom_idx)
