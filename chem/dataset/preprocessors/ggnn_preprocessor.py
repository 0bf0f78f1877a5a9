"""GGNNPreprocessor: atomic numbers and one adjacency matrix per bond type (Gated Graph Neural Network)."""
from kusari.chem.dataset.preprocessors.common import (
    check_max_atoms_and_out_size, construct_atomic_number_array, construct_discrete_edge_matrix,
    type_check_num_atoms)
from kusari.chem.dataset.preprocessors.mol_preprocessor import MolPreprocessor


class GGNNPreprocessor(MolPreprocessor):
    """Features for GGNN: atomic numbers and bond-type adjacency (single, double, triple, aromatic).

    Parameters
    ----------
    max_atoms : int
        Molecules with more atoms are skipped (MolFeatureExtractionError); negative: no limit.
    out_size : int
        Size the arrays are zero-padded to; negative: no padding.
    add_Hs : bool
        Whether to make hydrogens explicit atoms.
    kekulize : bool
        Whether to kekulize the molecule (then the aromatic channel is empty).
    """

    # GNN-FiLM subclasses this with an extra self-loop channel
    _self_connection_channel = False

    def __init__(self, max_atoms: int = -1, out_size: int = -1, add_Hs: bool = False,
                 kekulize: bool = False):
        super().__init__(add_Hs=add_Hs, kekulize=kekulize)
        check_max_atoms_and_out_size(type(self).__name__, max_atoms, out_size)
        self.max_atoms = max_atoms
        self.out_size = out_size

    def get_input_features(self, mol) -> tuple:
        """Atomic numbers and bond-type adjacency of ``mol`` (``N`` atoms, ``S = out_size`` or ``N``).

        Returns
        -------
        tuple of numpy.ndarray
            ``(S,)`` int32 atomic numbers, ``(4, S, S)`` float32 adjacency per bond type.
        """
        type_check_num_atoms(mol, self.max_atoms)
        return (construct_atomic_number_array(mol, out_size=self.out_size),
                construct_discrete_edge_matrix(
                    mol, out_size=self.out_size,
                    add_self_connection_channel=self._self_connection_channel))
