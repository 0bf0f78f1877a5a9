"""RSGCNPreprocessor: atomic numbers and the symmetrically normalized adjacency (Renormalized Spectral GCN)."""
import numpy

from kusari.chem.dataset.preprocessors.nfp_preprocessor import NFPPreprocessor


class RSGCNPreprocessor(NFPPreprocessor):
    """Features for RSGCN: atomic numbers and ``D^-1/2 (A + I) D^-1/2`` (``D``: degrees of ``A + I``).

    Parameters as :class:`NFPPreprocessor`.
    """

    def get_input_features(self, mol) -> tuple:
        """Atomic numbers and normalized adjacency of ``mol`` (``N`` atoms, ``S = out_size`` or ``N``).

        Returns
        -------
        tuple of numpy.ndarray
            ``(S,)`` int32 atomic numbers, ``(S, S)`` float32 normalized adjacency (padding 0).
        """
        atom_array, adj_array = super().get_input_features(mol)
        n = mol.GetNumAtoms()
        # every atom has its self loop, so no degree is 0
        inv_sqrt_degree = 1 / numpy.sqrt(adj_array[:n].sum(axis=1))
        adj_array[:n, :n] *= inv_sqrt_degree[:, None] * inv_sqrt_degree[None, :]
        return atom_array, adj_array
