"""GINPreprocessor: atomic numbers and the adjacency matrix with self loops (Graph Isomorphism Network)."""
from kusari.chem.dataset.preprocessors.nfp_preprocessor import NFPPreprocessor


class GINPreprocessor(NFPPreprocessor):
    """Features for GIN: the same as :class:`NFPPreprocessor`'s (GIN takes no ``kekulize``).

    Parameters
    ----------
    max_atoms : int
        Molecules with more atoms are skipped (MolFeatureExtractionError); negative: no limit.
    out_size : int
        Size the arrays are zero-padded to; negative: no padding.
    add_Hs : bool
        Whether to make hydrogens explicit atoms.
    """

    def __init__(self, max_atoms: int = -1, out_size: int = -1, add_Hs: bool = False):
        super().__init__(max_atoms=max_atoms, out_size=out_size, add_Hs=add_Hs)
