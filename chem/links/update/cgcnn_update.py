"""CGCNNUpdate: one gated crystal-graph convolution (Xie and Grossman, 2018)."""
import numpy

from kusari import functions as F
from kusari.link import Chain
from kusari.links import BatchNormalization, Linear


def check_crystal_graph(name: str, site_feat, nbr_feat, nbr_idx) -> None:
    """Raise ValueError or TypeError unless the arrays form cgcnn_converter's crystal graph batch.

    Parameters
    ----------
    name : str
        The caller, for the message (e.g. 'CGCNN').
    site_feat : array or Variable, shape (n_site, n_feat)
    nbr_feat : array or Variable, shape (n_site, n_nbr, n_nbr_feat)
    nbr_idx : int array, shape (n_site, n_nbr)
        Row of ``site_feat`` of each neighbor, in [0, n_site).
    """
    shapes = (f"site_feat.shape={tuple(site_feat.shape)}, nbr_feat.shape={tuple(nbr_feat.shape)}, "
              f"nbr_idx.shape={tuple(nbr_idx.shape)}")
    if site_feat.ndim != 2 or nbr_feat.ndim != 3 or nbr_idx.shape != nbr_feat.shape[:2] \
            or nbr_feat.shape[0] != site_feat.shape[0]:
        raise ValueError(f"{name}: expected site_feat (n_site, n_feat), nbr_feat (n_site, n_nbr, "
                         f"n_nbr_feat) and nbr_idx (n_site, n_nbr), as cgcnn_converter gives them; "
                         f"got {shapes}")
    if numpy.dtype(nbr_idx.dtype).kind not in "iu":
        raise TypeError(f"{name}: nbr_idx must hold integer row indices, got dtype {nbr_idx.dtype}")
    n_site = site_feat.shape[0]
    if nbr_idx.size and (int(nbr_idx.min()) < 0 or int(nbr_idx.max()) >= n_site):
        raise ValueError(f"{name}: nbr_idx must index the {n_site} sites (0 .. {n_site - 1}), "
                         f"got values from {int(nbr_idx.min())} to {int(nbr_idx.max())}")


class CGCNNUpdate(Chain):
    """``softplus(v_i + bn2(sum_j sigmoid(g_ij) * softplus(c_ij)))``, ``[g_ij, c_ij] = bn1(fc(z_ij))``.

    ``z_ij`` concatenates site i's features, those of its j-th neighbor and the features of that
    bond; g and c are the two halves of ``fc``'s output.

    Parameters
    ----------
    n_site_features : int
        Site feature size; the input's must equal it (the update is residual).
    """

    def __init__(self, n_site_features: int = 64):
        super().__init__()
        with self.init_scope():
            self.fc = Linear(None, 2 * n_site_features)
            self.bn1 = BatchNormalization(2 * n_site_features)
            self.bn2 = BatchNormalization(n_site_features)
        self.n_site_features = n_site_features

    def forward(self, site_feat, nbr_feat, nbr_feat_idx):
        """Update every site from its neighbors.

        Parameters
        ----------
        site_feat : Variable or array, shape (n_site, n_site_features)
        nbr_feat : Variable or array, shape (n_site, n_nbr, n_nbr_feat)
            Features of each site's bonds to its neighbors.
        nbr_feat_idx : int array, shape (n_site, n_nbr)
            Row of ``site_feat`` of each neighbor.

        Returns
        -------
        Variable, shape (n_site, n_site_features)
        """
        check_crystal_graph("CGCNNUpdate", site_feat, nbr_feat, nbr_feat_idx)
        n_site, n_nbr, n_nbr_feat = nbr_feat.shape
        n_feat = site_feat.shape[1]
        if n_feat != self.n_site_features:
            raise ValueError(f"CGCNNUpdate: site_feat has {n_feat} features but n_site_features is "
                             f"{self.n_site_features} (site_feat.shape={tuple(site_feat.shape)})")
        pair_feat = F.concat((
            F.broadcast_to(F.expand_dims(site_feat, 1), (n_site, n_nbr, n_feat)),
            F.get_item(site_feat, nbr_feat_idx),
            nbr_feat,
        ), axis=2)
        pair_feat = self.fc(F.reshape(pair_feat, (n_site * n_nbr, 2 * n_feat + n_nbr_feat)))
        pair_feat = F.reshape(self.bn1(pair_feat), (n_site, n_nbr, 2 * n_feat))
        gate, core = F.split_axis(pair_feat, 2, axis=2)
        message = F.sum(F.sigmoid(gate) * F.softplus(core), axis=1)
        return F.softplus(site_feat + self.bn2(message))
