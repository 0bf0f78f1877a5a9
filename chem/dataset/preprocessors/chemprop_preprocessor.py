"""ChempropPreprocessor: chemprop 2's multi-hot atom and bond features (its default 'V2' atom featurizer).

The features are chemprop 2.3.1's defaults for ``chemprop train`` (Yang et al. 2019; Heid et al.
2024), built here on RDKit from their definitions:

- atom (72 values): atomic number (H..Kr and I, then one bit for any other), total degree (0-5,
  other), formal charge (-1, -2, +1, +2, 0, other), chiral tag (RDKit's ChiralType 0-3, other),
  total number of hydrogens (0-4, other), hybridization (S, SP, SP2, SP2D, SP3, SP3D, SP3D2,
  other), aromaticity (0/1), mass / 100;
- bond (14 values): a "no bond" bit (0 for every real bond), bond type (single, double, triple,
  aromatic; another type sets none of them), conjugated (0/1), in a ring (0/1), stereo
  (RDKit's BondStereo 0-5, other).
"""
import numpy
from rdkit import Chem
from rdkit.Chem.rdchem import BondType, HybridizationType

from kusari.chem.dataset.preprocessors.common import (MolFeatureExtractionError,
                                                      check_max_atoms_and_out_size,
                                                      type_check_num_atoms)
from kusari.chem.dataset.preprocessors.mol_preprocessor import MolPreprocessor

ATOMIC_NUMBERS = tuple(range(1, 37)) + (53,)
DEGREES = tuple(range(6))
FORMAL_CHARGES = (-1, -2, 1, 2, 0)
CHIRAL_TAGS = tuple(range(4))
NUM_HS = tuple(range(5))
HYBRIDIZATIONS = (HybridizationType.S, HybridizationType.SP, HybridizationType.SP2,
                  HybridizationType.SP2D, HybridizationType.SP3, HybridizationType.SP3D,
                  HybridizationType.SP3D2)
BOND_TYPES = (BondType.SINGLE, BondType.DOUBLE, BondType.TRIPLE, BondType.AROMATIC)
BOND_STEREOS = tuple(range(6))

# each one-hot group has a last bit for values outside its choices; then aromaticity and mass
_ATOM_GROUPS = (ATOMIC_NUMBERS, DEGREES, FORMAL_CHARGES, CHIRAL_TAGS, NUM_HS, HYBRIDIZATIONS)
ATOM_FDIM = sum(len(choices) + 1 for choices in _ATOM_GROUPS) + 2
BOND_FDIM = 1 + len(BOND_TYPES) + 2 + len(BOND_STEREOS) + 1


def atom_features(atom: Chem.Atom) -> numpy.ndarray:
    """chemprop's multi-hot vector of one atom.

    Returns
    -------
    numpy.ndarray, shape (ATOM_FDIM,) = (72,), float32
    """
    x = numpy.zeros(ATOM_FDIM, dtype=numpy.float32)
    values = (atom.GetAtomicNum(), atom.GetTotalDegree(), atom.GetFormalCharge(),
              int(atom.GetChiralTag()), atom.GetTotalNumHs(), atom.GetHybridization())
    offset = 0
    for value, choices in zip(values, _ATOM_GROUPS):
        x[offset + (choices.index(value) if value in choices else len(choices))] = 1
        offset += len(choices) + 1
    x[offset] = atom.GetIsAromatic()
    x[offset + 1] = 0.01 * atom.GetMass()
    return x


def bond_features(bond: Chem.Bond) -> numpy.ndarray:
    """chemprop's multi-hot vector of one bond (its first bit, "no bond", is 0).

    Returns
    -------
    numpy.ndarray, shape (BOND_FDIM,) = (14,), float32
    """
    x = numpy.zeros(BOND_FDIM, dtype=numpy.float32)
    bond_type = bond.GetBondType()
    if bond_type in BOND_TYPES:   # chemprop keeps no bit for other types
        x[1 + BOND_TYPES.index(bond_type)] = 1
    offset = 1 + len(BOND_TYPES)
    x[offset] = bond.GetIsConjugated()
    x[offset + 1] = bond.IsInRing()
    offset += 2
    stereo = int(bond.GetStereo())
    x[offset + (BOND_STEREOS.index(stereo) if stereo in BOND_STEREOS else len(BOND_STEREOS))] = 1
    return x


class ChempropPreprocessor(MolPreprocessor):
    """chemprop's atom features and, for every atom pair, its bond's features.

    Unlike Chainer Chemistry's preprocessors, stereochemistry is kept (chirality and bond stereo are
    features): the molecule is rebuilt from its canonical isomeric SMILES.

    Parameters
    ----------
    max_atoms : int
        Molecules with more atoms are skipped (MolFeatureExtractionError); negative: no limit.
    out_size : int
        Size the arrays are zero-padded to; negative: no padding.
    add_Hs : bool
        Whether to make hydrogens explicit atoms (chemprop's default: no).
    """

    def __init__(self, max_atoms: int = -1, out_size: int = -1, add_Hs: bool = False):
        super().__init__(add_Hs=add_Hs, kekulize=False)
        check_max_atoms_and_out_size(type(self).__name__, max_atoms, out_size)
        self.max_atoms = max_atoms
        self.out_size = out_size

    def prepare_smiles_and_mol(self, mol: Chem.Mol) -> tuple:
        """The canonical isomeric SMILES of ``mol`` and the molecule rebuilt from it (hydrogens
        added if asked); see :meth:`MolPreprocessor.prepare_smiles_and_mol`."""
        canonical_smiles = Chem.MolToSmiles(mol, isomericSmiles=True, canonical=True)
        mol = Chem.MolFromSmiles(canonical_smiles)
        if self.add_Hs:
            mol = Chem.AddHs(mol)
        return canonical_smiles, mol

    def get_input_features(self, mol: Chem.Mol) -> tuple:
        """Atom features and per-pair bond features of ``mol`` (``N`` atoms, ``S = out_size`` or ``N``).

        Returns
        -------
        tuple of numpy.ndarray
            ``(S, 72)`` float32 atom features (zero rows for padding), and ``(14, S, S)`` float32
            bond features, channel first as the edge-typed adjacency of GGNN's preprocessor
            (channels 1-4, the bond type, are that adjacency), zero where two atoms share no bond.
        """
        type_check_num_atoms(mol, self.max_atoms)
        n_atoms = mol.GetNumAtoms()
        size = n_atoms if self.out_size < 0 else self.out_size
        if size < n_atoms:
            raise MolFeatureExtractionError(f"ChempropPreprocessor: the molecule has {n_atoms} atoms, "
                                            f"more than out_size={self.out_size}")
        atoms = numpy.zeros((size, ATOM_FDIM), dtype=numpy.float32)
        for atom in mol.GetAtoms():
            atoms[atom.GetIdx()] = atom_features(atom)
        bonds = numpy.zeros((BOND_FDIM, size, size), dtype=numpy.float32)
        for bond in mol.GetBonds():
            i, j = bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()
            bonds[:, i, j] = bonds[:, j, i] = bond_features(bond)
        return atoms, bonds
