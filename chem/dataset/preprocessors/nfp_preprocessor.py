"""NFPPreprocessor: atomic numbers and the adjacency matrix with self loops (Neural Fingerprint)."""
from kusari.chem.dataset.preprocessors.common import (
    check_max_atoms_and_out_size, construct_adj_matrix, construct_atomic_number_array,
    type_check_num_atoms)
from kusari.chem.dataset.preprocessors.mol_preprocessor import MolPreprocessor


class NFPPreprocessor(MolPreprocessor):
    """Features for NFP: atomic numbers and adjacency with self loops.

    Parameters
    ----------
    max_atoms : int
        Molecules with more atoms are skipped (MolFeatureExtractionError); negative: no limit.
    out_size : int
        Size the arrays are zero-padded to; negative: no padding.
    add_Hs : bool
        Whether to make hydrogens explicit atoms.
    kekulize : bool
        Whether to kekulize the molecule.
    """

    def __init__(self, max_atoms: int = -1, out_size: int = -1, add_Hs: bool = False,
                 kekulize: bool = False):
        super().__init__(add_Hs=add_Hs, kekulize=kekulize)
        check_max_atoms_and_out_size(type(self).__name__, max_atoms, out_size)
        self.max_atoms = max_atoms
        self.out_size = out_size

    def get_input_features(self, mol) -> tuple:
        """Atomic numbers and adjacency of ``mol`` (``N`` atoms, ``S = out_size`` or ``N``).

        Returns
        -------
        tuple of numpy.ndarray
            ``(S,)`` int32 atomic numbers, ``(S, S)`` float32 adjacency with 1 on the atoms' diagonal.
        """
        type_check_num_atoms(mol, self.max_atoms)
        return (construct_atomic_number_array(mol, out_size=self.out_size),
                construct_adj_matrix(mol, out_size=self.out_size))
