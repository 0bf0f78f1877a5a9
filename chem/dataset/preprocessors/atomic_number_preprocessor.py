"""AtomicNumberPreprocessor: a molecule as the array of its atomic numbers."""
from kusari.chem.dataset.preprocessors.common import (
    check_max_atoms_and_out_size, construct_atomic_number_array, type_check_num_atoms)
from kusari.chem.dataset.preprocessors.mol_preprocessor import MolPreprocessor


class AtomicNumberPreprocessor(MolPreprocessor):
    """Atomic numbers only.

    Parameters
    ----------
    max_atoms : int
        Molecules with more atoms are skipped (MolFeatureExtractionError); negative: no limit.
    out_size : int
        Length the atom array is zero-padded to; negative: no padding.
    """

    def __init__(self, max_atoms: int = -1, out_size: int = -1):
        super().__init__()
        check_max_atoms_and_out_size(type(self).__name__, max_atoms, out_size)
        self.max_atoms = max_atoms
        self.out_size = out_size

    def get_input_features(self, mol):
        """Atomic numbers of ``mol``.

        Returns
        -------
        numpy.ndarray
            ``(out_size,)`` or ``(N,)`` int32.
        """
        type_check_num_atoms(mol, self.max_atoms)
        return construct_atomic_number_array(mol, out_size=self.out_size)
