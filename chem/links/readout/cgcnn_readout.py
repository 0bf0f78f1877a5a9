"""CGCNNReadout: the mean of each crystal's site features, then a linear layer and softplus."""
import numpy

from kusari import functions as F
from kusari.link import Chain
from kusari.links import Linear


class CGCNNReadout(Chain):
    """``softplus(linear(mean of each crystal's rows of atom_feat))``.

    Parameters
    ----------
    out_dim : int
    """

    def __init__(self, out_dim: int = 128):
        super().__init__()
        with self.init_scope():
            self.linear = Linear(None, out_dim)
        self.out_dim = out_dim

    def forward(self, atom_feat, atom_idx):
        """Pool the sites of each crystal.

        Parameters
        ----------
        atom_feat : Variable or array, shape (n_site, n_feat)
        atom_idx : sequence of B int arrays
            Rows of ``atom_feat`` of each crystal (cgcnn_converter's (B,) object array).

        Returns
        -------
        Variable, shape (B, out_dim)
        """
        if atom_feat.ndim != 2:
            raise ValueError(f"CGCNNReadout: atom_feat must be (n_site, n_feat), "
                             f"got shape {tuple(atom_feat.shape)}")
        n_site = atom_feat.shape[0]
        for i, idx in enumerate(atom_idx):
            idx = numpy.asarray(idx)
            if idx.ndim != 1 or idx.size == 0 or idx.dtype.kind not in "iu" \
                    or int(idx.min()) < 0 or int(idx.max()) >= n_site:
                raise ValueError(f"CGCNNReadout: atom_idx[{i}] must be a non-empty 1-D int array of "
                                 f"rows of atom_feat (0 .. {n_site - 1}), got {idx!r}")
        pooled = F.concat([F.mean(F.get_item(atom_feat, idx), axis=0, keepdims=True)
                           for idx in atom_idx], axis=0)
        return F.softplus(self.linear(pooled))
