"""WeaveNetPreprocessor: per-atom features and per-atom-pair features (distance, bond, ring) for WeaveNet.

The layout is Chainer Chemistry 0.7.1's, so that its trained WeaveNet models see the same inputs:
the pair features of a molecule with ``n`` atoms fill rows ``i * n + j`` of a
``(max_atoms ** 2, 7)`` array (stride ``n``, not ``max_atoms``), the rest is zero.
"""
import functools
import os

import numpy
from rdkit import Chem, RDConfig
from rdkit.Chem import AllChem, ChemicalFeatures

from kusari.chem.dataset.preprocessors.common import (
    MolFeatureExtractionError, construct_atomic_number_array, type_check_num_atoms)
from kusari.chem.config import WEAVE_DEFAULT_NUM_MAX_ATOMS
from kusari.chem.dataset.preprocessors.mol_preprocessor import MolPreprocessor

ATOM = ['H', 'C', 'N', 'O', 'S', 'Cl', 'Br', 'F', 'P', 'I']
# graph distances are encoded with this many thermometer bits (1, 2, ... bonds apart)
MAX_DISTANCE = 2
# Chainer Chemistry compares with 'SP1', a name RDKit does not use: the sp column stays 0
_HYBRIDIZATION_COLUMN = {'SP1': 0, 'SP2': 1, 'SP3': 2}
_BOND_COLUMN = {Chem.BondType.SINGLE: 0, Chem.BondType.DOUBLE: 1, Chem.BondType.TRIPLE: 2,
                Chem.BondType.AROMATIC: 3}


@functools.lru_cache(maxsize=1)
def _feature_factory():
    return ChemicalFeatures.BuildFeatureFactory(os.path.join(RDConfig.RDDataDir, 'BaseFeatures.fdef'))


def construct_atom_type_vec(mol: Chem.Mol, num_max_atoms: int = WEAVE_DEFAULT_NUM_MAX_ATOMS,
                            atom_list=None, include_unknown_atom: bool = False) -> numpy.ndarray:
    """One-hot element of each atom over ``atom_list`` (plus an "unknown" column if asked).

    Returns
    -------
    numpy.ndarray
        ``(num_max_atoms, len(atom_list) [+ 1])`` float32.
    """
    atom_list = atom_list or ATOM
    vec = numpy.zeros((num_max_atoms, len(atom_list) + include_unknown_atom), dtype=numpy.float32)
    for atom in mol.GetAtoms():
        symbol = atom.GetSymbol()
        if symbol in atom_list:
            vec[atom.GetIdx(), atom_list.index(symbol)] = 1
        elif include_unknown_atom:
            vec[atom.GetIdx(), len(atom_list)] = 1
        else:
            raise MolFeatureExtractionError(
                f"construct_atom_type_vec: atom {atom.GetIdx()} is {symbol}, not in atom_list "
                f"{atom_list} (pass include_unknown_atom=True to map it to an unknown-atom column)")
    return vec


def _per_atom(mol: Chem.Mol, num_max_atoms: int, width: int, fill) -> numpy.ndarray:
    vec = numpy.zeros((num_max_atoms, width), dtype=numpy.float32)
    for atom in mol.GetAtoms():
        fill(vec[atom.GetIdx()], atom)
    return vec


def construct_formal_charge_vec(mol: Chem.Mol,
                                num_max_atoms: int = WEAVE_DEFAULT_NUM_MAX_ATOMS) -> numpy.ndarray:
    """Formal charge of each atom: ``(num_max_atoms, 1)`` float32."""
    def fill(row, atom):
        row[0] = atom.GetFormalCharge()
    return _per_atom(mol, num_max_atoms, 1, fill)


def construct_hybridization_vec(mol: Chem.Mol,
                                num_max_atoms: int = WEAVE_DEFAULT_NUM_MAX_ATOMS) -> numpy.ndarray:
    """Hybridization flags (sp, sp2, sp3) of each atom: ``(num_max_atoms, 3)`` float32."""
    def fill(row, atom):
        column = _HYBRIDIZATION_COLUMN.get(str(atom.GetHybridization()))
        if column is not None:
            row[column] = 1
    return _per_atom(mol, num_max_atoms, 3, fill)


def construct_partial_charge_vec(mol: Chem.Mol,
                                 num_max_atoms: int = WEAVE_DEFAULT_NUM_MAX_ATOMS) -> numpy.ndarray:
    """Gasteiger partial charge of each atom (computed on ``mol`` in place): ``(num_max_atoms, 1)`` float32."""
    AllChem.ComputeGasteigerCharges(mol)

    def fill(row, atom):
        row[0] = atom.GetDoubleProp('_GasteigerCharge')
    return _per_atom(mol, num_max_atoms, 1, fill)


def construct_atom_ring_vec(mol: Chem.Mol,
                            num_max_atoms: int = WEAVE_DEFAULT_NUM_MAX_ATOMS) -> numpy.ndarray:
    """Whether each atom lies in a smallest ring of size 3 .. 8: ``(num_max_atoms, 6)`` float32."""
    ring_vec = numpy.zeros((num_max_atoms, 6), dtype=numpy.float32)
    for ring in Chem.GetSymmSSSR(mol):
        if 3 <= len(ring) <= 8:
            ring_vec[list(ring), len(ring) - 3] = 1
    return ring_vec


def construct_hydrogen_bonding(mol: Chem.Mol,
                               num_max_atoms: int = WEAVE_DEFAULT_NUM_MAX_ATOMS) -> numpy.ndarray:
    """Hydrogen-bond donor and acceptor flags (RDKit's BaseFeatures): ``(num_max_atoms, 2)`` float32."""
    vec = numpy.zeros((num_max_atoms, 2), dtype=numpy.float32)
    for feature in _feature_factory().GetFeaturesForMol(mol):
        column = {'Donor': 0, 'Acceptor': 1}.get(feature.GetFamily())
        if column is not None:
            vec[feature.GetAtomIds()[0], column] = 1
    return vec


def construct_num_hydrogens_vec(mol: Chem.Mol,
                                num_max_atoms: int = WEAVE_DEFAULT_NUM_MAX_ATOMS) -> numpy.ndarray:
    """Number of explicit hydrogen atoms bonded to each atom: ``(num_max_atoms, 1)`` float32."""
    def fill(row, atom):
        row[0] = sum(neighbor.GetSymbol() == 'H' for neighbor in atom.GetNeighbors())
    return _per_atom(mol, num_max_atoms, 1, fill)


def construct_aromaticity_vec(mol: Chem.Mol,
                              num_max_atoms: int = WEAVE_DEFAULT_NUM_MAX_ATOMS) -> numpy.ndarray:
    """Whether each atom is aromatic: ``(num_max_atoms, 1)`` float32."""
    def fill(row, atom):
        row[0] = atom.GetIsAromatic()
    return _per_atom(mol, num_max_atoms, 1, fill)


def construct_atom_feature(mol: Chem.Mol, add_Hs: bool,
                           num_max_atoms: int = WEAVE_DEFAULT_NUM_MAX_ATOMS, atom_list=None,
                           include_unknown_atom: bool = False) -> numpy.ndarray:
    """The WeaveNet paper's atom features, concatenated per atom.

    Parameters
    ----------
    mol : rdkit.Chem.Mol
        The molecule (its Gasteiger charges are computed in place).
    add_Hs : bool
        Whether ``mol`` has explicit hydrogens; then their count per atom is appended.
    num_max_atoms : int
        Number of rows (atoms beyond the molecule's are zero).
    atom_list : list of str or None
        Element symbols of the one-hot atom type; default :data:`ATOM`.
    include_unknown_atom : bool
        Whether an element outside ``atom_list`` gets an "unknown" column instead of raising
        MolFeatureExtractionError.

    Returns
    -------
    numpy.ndarray
        ``(num_max_atoms, F)`` float32: atom type, formal charge, partial charge, ring sizes (6),
        hybridization (3), donor/acceptor (2), aromaticity, and with ``add_Hs`` the hydrogen count.
    """
    parts = [construct_atom_type_vec(mol, num_max_atoms, atom_list=atom_list,
                                     include_unknown_atom=include_unknown_atom)]
    parts += [f(mol, num_max_atoms) for f in (
        construct_formal_charge_vec, construct_partial_charge_vec, construct_atom_ring_vec,
        construct_hybridization_vec, construct_hydrogen_bonding, construct_aromaticity_vec)]
    if add_Hs:
        parts.append(construct_num_hydrogens_vec(mol, num_max_atoms))
    return numpy.hstack(parts)


def construct_pair_feature(mol: Chem.Mol,
                           num_max_atoms: int = WEAVE_DEFAULT_NUM_MAX_ATOMS) -> numpy.ndarray:
    """Features of every ordered atom pair ``(i, j)``, in row ``i * n + j`` (``n``: the molecule's atoms).

    Columns: graph distance as ``MAX_DISTANCE`` thermometer bits, bond type one-hot (single,
    double, triple, aromatic), and whether ``i`` and ``j`` share a smallest ring.

    Returns
    -------
    numpy.ndarray
        ``(num_max_atoms ** 2, MAX_DISTANCE + 5)`` float32; rows from ``n ** 2`` on are zero.
    """
    n = mol.GetNumAtoms()
    distance = numpy.minimum(Chem.GetDistanceMatrix(mol), MAX_DISTANCE).astype(numpy.int64)
    distance_bits = (numpy.arange(MAX_DISTANCE) < distance[..., None]).reshape(n * n, MAX_DISTANCE)
    bond_type = numpy.zeros((n, n, 4), dtype=numpy.float32)
    for bond in mol.GetBonds():
        column = _BOND_COLUMN.get(bond.GetBondType())
        if column is None:
            raise MolFeatureExtractionError(
                f"construct_pair_feature: bond {bond.GetIdx()} has type {bond.GetBondType()}, "
                "not single, double, triple or aromatic")
        i, j = bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()
        bond_type[i, j, column] = bond_type[j, i, column] = 1
    same_ring = numpy.zeros((n, n), dtype=numpy.float32)
    for ring in Chem.GetSymmSSSR(mol):
        same_ring[numpy.ix_(list(ring), list(ring))] = 1
    feature = numpy.zeros((num_max_atoms ** 2, MAX_DISTANCE + 5), dtype=numpy.float32)
    feature[:n * n] = numpy.hstack([distance_bits, bond_type.reshape(n * n, 4),
                                    same_ring.reshape(n * n, 1)])
    return feature


class WeaveNetPreprocessor(MolPreprocessor):
    """Features for WeaveNet: atom features (or atomic numbers) and atom-pair features, padded to ``max_atoms``.

    Parameters
    ----------
    max_atoms : int
        Molecules with more atoms are skipped (MolFeatureExtractionError); also the padded size,
        so it must be positive.
    add_Hs : bool
        Whether to make hydrogens explicit atoms.
    use_fixed_atom_feature : bool
        True: the paper's atom features (:func:`construct_atom_feature`); False: atomic numbers.
    atom_list : list of str or None
        Element symbols of the one-hot atom type; default :data:`ATOM`.
    include_unknown_atom : bool
        Whether elements outside ``atom_list`` get an "unknown" column instead of being skipped.
    kekulize : bool
        Whether to kekulize the molecule.
    """

    def __init__(self, max_atoms: int = WEAVE_DEFAULT_NUM_MAX_ATOMS, add_Hs: bool = True,
                 use_fixed_atom_feature: bool = False, atom_list=None,
                 include_unknown_atom: bool = False, kekulize: bool = False):
        super().__init__(add_Hs=add_Hs, kekulize=kekulize)
        if max_atoms <= 0:
            raise ValueError(f"WeaveNetPreprocessor: max_atoms must be positive (it is the padded "
                             f"size), got {max_atoms}")
        self.max_atoms = max_atoms
        self.zero_padding = True
        self.use_fixed_atom_feature = use_fixed_atom_feature
        self.atom_list = atom_list
        self.include_unknown_atom = include_unknown_atom

    def get_input_features(self, mol) -> tuple:
        """Atom and pair features of ``mol``.

        Returns
        -------
        tuple of numpy.ndarray
            ``(max_atoms, F)`` float32 atom features or ``(max_atoms,)`` int32 atomic numbers,
            and ``(max_atoms ** 2, 7)`` float32 pair features.
        """
        type_check_num_atoms(mol, self.max_atoms)
        if self.use_fixed_atom_feature:
            atom_array = construct_atom_feature(mol, self.add_Hs, self.max_atoms, self.atom_list,
                                                self.include_unknown_atom)
        else:
            atom_array = construct_atomic_number_array(mol, self.max_atoms)
        return atom_array, construct_pair_feature(mol, num_max_atoms=self.max_atoms)
