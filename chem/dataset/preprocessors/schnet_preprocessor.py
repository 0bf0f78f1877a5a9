"""SchNetPreprocessor: atomic numbers and interatomic distances of an embedded 3-D conformer (SchNet)."""
import logging

import numpy
from rdkit import Chem
from rdkit.Chem import AllChem, rdmolops

from kusari.chem.dataset.preprocessors.common import (
    MolFeatureExtractionError, construct_atomic_number_array, type_check_num_atoms)
from kusari.chem.dataset.preprocessors.nfp_preprocessor import NFPPreprocessor

logger = logging.getLogger(__name__)


def construct_distance_matrix(mol: Chem.Mol, out_size: int = -1,
                              contain_Hs: bool = False) -> numpy.ndarray:
    """Distances in Angstrom between the atoms of a conformer that RDKit embeds for ``mol``.

    The embedding (ETKDG with RDKit's default, unseeded, random coordinates) is done with explicit
    hydrogens, which are removed again unless ``contain_Hs``.

    Parameters
    ----------
    mol : rdkit.Chem.Mol
        The molecule, with ``N`` atoms.
    out_size : int
        Side of the result (``>= N``); negative means ``N``. Padding entries are 0.
    contain_Hs : bool
        Whether ``mol`` already has explicit hydrogens (they are then kept).

    Returns
    -------
    numpy.ndarray
        ``(out_size, out_size)`` or ``(N, N)``, float32.
    """
    if mol is None:
        raise MolFeatureExtractionError("construct_distance_matrix: mol is None")
    n = mol.GetNumAtoms()
    if 0 <= out_size < n:
        raise MolFeatureExtractionError(
            f"construct_distance_matrix: out_size={out_size} is smaller than the number of atoms ({n})")
    embedded = mol if contain_Hs else AllChem.AddHs(mol)
    conf_id = AllChem.EmbedMolecule(embedded)
    if conf_id < 0:
        raise MolFeatureExtractionError(
            f"construct_distance_matrix: RDKit could not embed {Chem.MolToSmiles(mol)} in 3-D")
    if not contain_Hs:
        embedded = AllChem.RemoveHs(embedded)
    distances = rdmolops.Get3DDistanceMatrix(embedded, confId=conf_id)
    size = max(out_size, n)
    dist_array = numpy.zeros((size, size), dtype=numpy.float32)
    dist_array[:n, :n] = distances
    return dist_array


class SchNetPreprocessor(NFPPreprocessor):
    """Features for SchNet: atomic numbers and a 3-D distance matrix.

    Parameters as :class:`NFPPreprocessor`; with ``add_Hs`` the distances include the hydrogens.
    """

    def get_input_features(self, mol) -> tuple:
        """Atomic numbers and distances of ``mol`` (``N`` atoms, ``S = out_size`` or ``N``).

        Returns
        -------
        tuple of numpy.ndarray
            ``(S,)`` int32 atomic numbers, ``(S, S)`` float32 distances in Angstrom.
        """
        type_check_num_atoms(mol, self.max_atoms)
        return (construct_atomic_number_array(mol, out_size=self.out_size),
                construct_distance_matrix(mol, out_size=self.out_size, contain_Hs=self.add_Hs))
