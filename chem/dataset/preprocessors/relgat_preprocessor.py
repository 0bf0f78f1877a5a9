"""RelGATPreprocessor: GGNN's features (atomic numbers, adjacency per bond type) for Relational GAT."""
from kusari.chem.dataset.preprocessors.ggnn_preprocessor import GGNNPreprocessor


class RelGATPreprocessor(GGNNPreprocessor):
    """Features for RelGAT: the same as :class:`GGNNPreprocessor`'s (RelGAT takes no ``kekulize``).

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
