"""MEGNetPreprocessor: atom, bond-pair and global-state features of a molecule for MEGNet.

Pair features use the distances of one 3-D embedding (``AllChem.EmbedMolecule``, unseeded, as in
Chainer Chemistry), so they change from run to run; everything else is deterministic.
"""
import os

import numpy
from rdkit import Chem, RDConfig
from rdkit.Chem import AllChem, ChemicalFeatures, Descriptors, rdmolops

from kusari.chem.dataset.preprocessors.common import MolFeatureExtractionError, type_check_num_atoms
from kusari.chem.dataset.preprocessors.mol_preprocessor import MolPreprocessor
from kusari.chem.dataset.utils import GaussianDistance

MAX_ATOM_ELEMENT = 94
ATOM = ["H", "C", "N", "O", "F"]

_BOND_COLUMN = {"SINGLE": 0, "DOUBLE": 1, "TRIPLE": 2, "AROMATIC": 3}
# Chainer Chemistry looks for 'SP1', a name RDKit never gives (sp atoms are 'SP'): their column stays 0
_HYBRIDIZATION_COLUMN = {"SP1": 0, "SP2": 1, "SP3": 2}


class ChemicalFeaturesFactory:
    """RDKit"s feature factory for donors and acceptors (``BaseFeatures.fdef``), built once."""

    _instance = None

    @classmethod
    def get_instance(cls):
        """The shared ``rdkit.Chem.rdMolChemicalFeatures.MolChemicalFeatureFactory``."""
        if cls._instance is None:
            cls._instance = ChemicalFeatures.BuildFeatureFactory(
                os.path.join(RDConfig.RDDataDir, "BaseFeatures.fdef"))
        return cls._instance


def construct_atom_type_vec(mol: Chem.Mol, num_max_atoms: int, atom_list=None,
                            include_unknown_atom: bool = False) -> numpy.ndarray:
    """One-hot element of the first ``num_max_atoms`` atoms.

    Parameters
    ----------
    mol : rdkit.Chem.Mol
        The molecule.
    num_max_atoms : int
        Number of atoms to encode ``N`` (at most ``mol``'s).
    atom_list : list of str or None
        The element symbols, one column each; None means ``ATOM`` (H, C, N, O, F).
    include_unknown_atom : bool
        Whether other elements go to one extra last column; if False they raise
        MolFeatureExtractionError.

    Returns
    -------
    numpy.ndarray
        ``(N, len(atom_list) (+ 1))`` float32.
    """
    atom_list = atom_list or ATOM
    n_columns = len(atom_list) + 1 if include_unknown_atom else len(atom_list)
    vec = numpy.zeros((num_max_atoms, n_columns), dtype=numpy.float32)
    for i in range(num_max_atoms):
        symbol = mol.GetAtomWithIdx(i).GetSymbol()
        if symbol in atom_list:
            vec[i, atom_list.index(symbol)] = 1.0
        elif include_unknown_atom:
            vec[i, len(atom_list)] = 1.0
        else:
            raise MolFeatureExtractionError(
                f"construct_atom_type_vec: atom {i} is {symbol}, which is not in atom_list "
                f"{atom_list} (pass include_unknown_atom=True to give it an 'unknown' column)")
    return vec


def construct_atom_chirality_vec(mol: Chem.Mol, num_max_atoms: int) -> numpy.ndarray:
    """Chirality of each atom: ``[1, 0]`` for R, ``[0, 1]`` for S, zeros otherwise.

    Returns
    -------
    numpy.ndarray
        ``(num_max_atoms, 2)`` float32.
    """
    vec = numpy.zeros((num_max_atoms, 2), dtype=numpy.float32)
    for idx, label in Chem.FindMolChiralCenters(mol):
        if label == "R":
            vec[idx] = [1, 0]
        elif label == "S":
            vec[idx] = [0, 1]
    return vec


def construct_atom_ring_vec(mol: Chem.Mol, num_max_atoms: int) -> numpy.ndarray:
    """For each atom, which sizes (3 to 8) of the smallest rings it belongs to.

    Returns
    -------
    numpy.ndarray
        ``(num_max_atoms, 6)`` float32; column ``s - 3`` for ring size ``s``.
    """
    vec = numpy.zeros((num_max_atoms, 6), dtype=numpy.float32)
    for ring in Chem.GetSymmSSSR(mol):
        if 3 <= len(ring) <= 8:
            for i in ring:
                if i < num_max_atoms:
                    vec[i, len(ring) - 3] = 1.0
    return vec


def construct_hybridization_vec(mol: Chem.Mol, num_max_atoms: int) -> numpy.ndarray:
    """One-hot hybridization (sp, sp2, sp3) of each atom.

    Chainer Chemistry's sp column is never set (see ``_HYBRIDIZATION_COLUMN``); kept for parity.

    Returns
    -------
    numpy.ndarray
        ``(num_max_atoms, 3)`` float32.
    """
    vec = numpy.zeros((num_max_atoms, 3), dtype=numpy.float32)
    for i in range(num_max_atoms):
        column = _HYBRIDIZATION_COLUMN.get(str(mol.GetAtomWithIdx(i).GetHybridization()))
        if column is not None:
            vec[i, column] = 1.0
    return vec


def construct_hydrogen_bonding(mol: Chem.Mol, num_max_atoms: int) -> numpy.ndarray:
    """Whether each atom is a hydrogen-bond donor (column 0) or acceptor (column 1).

    Returns
    -------
    numpy.ndarray
        ``(num_max_atoms, 2)`` float32.
    """
    vec = numpy.zeros((num_max_atoms, 2), dtype=numpy.float32)
    for feature in ChemicalFeaturesFactory.get_instance().GetFeaturesForMol(mol):
        family = feature.GetFamily()
        if family == "Donor":
            vec[feature.GetAtomIds()[0], 0] = 1.0
        elif family == "Acceptor":
            vec[feature.GetAtomIds()[0], 1] = 1.0
    return vec


def construct_aromaticity_vec(mol: Chem.Mol, num_max_atoms: int) -> numpy.ndarray:
    """Whether each atom is aromatic.

    Returns
    -------
    numpy.ndarray
        ``(num_max_atoms, 1)`` float32.
    """
    vec = numpy.zeros((num_max_atoms, 1), dtype=numpy.float32)
    for atom in mol.GetAromaticAtoms():
        vec[atom.GetIdx()] = 1.0
    return vec


def construct_atom_feature(mol: Chem.Mol, use_all_feature: bool, atom_list=None,
                           include_unknown_atom: bool = False) -> numpy.ndarray:
    """The atom features of ``mol`` (``N`` atoms).

    Parameters
    ----------
    mol : rdkit.Chem.Mol
        The molecule.
    use_all_feature : bool
        False: the element one-hot only; True: element, chirality (2), ring sizes (6),
        hybridization (3), hydrogen bonding (2) and aromaticity (1).
    atom_list, include_unknown_atom
        See :func:`construct_atom_type_vec`.

    Returns
    -------
    numpy.ndarray
        ``(N, F)`` float32.
    """
    n_atoms = mol.GetNumAtoms()
    atom_type = construct_atom_type_vec(mol, n_atoms, atom_list=atom_list,
                                        include_unknown_atom=include_unknown_atom)
    if not use_all_feature:
        return atom_type
    return numpy.hstack((atom_type,
                         construct_atom_chirality_vec(mol, n_atoms),
                         construct_atom_ring_vec(mol, n_atoms),
                         construct_hybridization_vec(mol, n_atoms),
                         construct_hydrogen_bonding(mol, n_atoms),
                         construct_aromaticity_vec(mol, n_atoms)))


def construct_bond_vec(mol: Chem.Mol, i: int, j: int) -> numpy.ndarray:
    """One-hot type (single, double, triple, aromatic) of the bond between atoms ``i`` and ``j``.

    Returns
    -------
    numpy.ndarray
        ``(4,)`` float32; zeros when the atoms are not bonded.
    """
    vec = numpy.zeros((4,), dtype=numpy.float32)
    bond = mol.GetBondBetweenAtoms(i, j)
    if bond is not None:
        bond_type = str(bond.GetBondType())
        if bond_type not in _BOND_COLUMN:
            raise ValueError(f"construct_bond_vec: the bond between atoms {i} and {j} is {bond_type}; "
                             f"only {sorted(_BOND_COLUMN)} bonds are encoded")
        vec[_BOND_COLUMN[bond_type]] = 1.0
    return vec


def get_is_in_ring(mol: Chem.Mol) -> dict:
    """Which of the smallest rings each ring atom belongs to.

    Returns
    -------
    dict
        ``{atom index: set of ring indices}`` (atoms in no ring are absent).
    """
    is_in_ring = {}
    for ring_idx, ring in enumerate(Chem.GetSymmSSSR(mol)):
        for i in ring:
            is_in_ring.setdefault(i, set()).add(ring_idx)
    return is_in_ring


def construct_ring_feature_vec(is_in_ring: dict, i: int, j: int) -> numpy.ndarray:
    """Whether atoms ``i`` and ``j`` share a ring (``is_in_ring`` from :func:`get_is_in_ring`).

    Returns
    -------
    numpy.ndarray
        ``(1,)`` float32.
    """
    shared = is_in_ring.get(i, set()) & is_in_ring.get(j, set())
    return numpy.array([1.0 if shared else 0.0], dtype=numpy.float32)


def construct_expanded_distance_vec(distance_matrix_3d: numpy.ndarray, converter: GaussianDistance,
                                    i: int, j: int) -> numpy.ndarray:
    """The distance between atoms ``i`` and ``j`` expanded by ``converter``.

    Returns
    -------
    numpy.ndarray
        ``(M,)`` float32, ``M`` the number of Gaussian centers.
    """
    return converter.expand(distance_matrix_3d[i, j])


def construct_pair_feature(mol: Chem.Mol, use_all_feature: bool) -> tuple:
    """Features of each bond, from one 3-D embedding of ``mol``.

    Parameters
    ----------
    mol : rdkit.Chem.Mol
        The molecule, with ``E`` bonds; a conformer is added to it.
    use_all_feature : bool
        False: the bond length expanded on 20 Gaussians (:class:`GaussianDistance`'s default);
        True: bond type (4), shared ring (1), graph distance (1) and that expansion (20).

    Returns
    -------
    tuple of numpy.ndarray
        ``(features, bond_idx)``: ``(E, 20)`` or ``(E, 26)`` float32, and ``(2, E)`` int64 begin
        and end atoms.
    """
    converter = GaussianDistance()
    graph_distance = Chem.GetDistanceMatrix(mol)
    is_in_ring = get_is_in_ring(mol)
    conf_id = AllChem.EmbedMolecule(mol)
    try:
        distance_3d = rdmolops.Get3DDistanceMatrix(mol, confId=conf_id)
    except ValueError as e:
        raise MolFeatureExtractionError(
            f"construct_pair_feature: RDKit could not embed the molecule in 3-D ({e})") from e
    features, bond_idx = [], []
    for bond in mol.GetBonds():
        i, j = bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()
        bond_idx.append((i, j))
        expanded = construct_expanded_distance_vec(distance_3d, converter, i, j)
        if use_all_feature:
            expanded = numpy.hstack((construct_bond_vec(mol, i, j),
                                     construct_ring_feature_vec(is_in_ring, i, j),
                                     numpy.array([graph_distance[i, j]], dtype=numpy.float32),
                                     expanded))
        features.append(expanded)
    n_features = len(converter.centers) + (6 if use_all_feature else 0)
    # explicit shapes: a molecule without bonds gives (0, F) and (2, 0), not shapeless arrays
    features = numpy.array(features, dtype=numpy.float32).reshape(len(features), n_features)
    bond_idx = numpy.array(bond_idx, dtype=numpy.int64).reshape(len(bond_idx), 2).T
    return features, bond_idx


def construct_global_state_feature(mol: Chem.Mol) -> numpy.ndarray:
    """Molecular weight per atom and bonds per atom.

    Returns
    -------
    numpy.ndarray
        ``(2,)`` float32.
    """
    n_atoms = mol.GetNumAtoms()
    return numpy.array([Descriptors.MolWt(mol) / n_atoms, len(mol.GetBonds()) / n_atoms],
                       dtype=numpy.float32)


class MEGNetPreprocessor(MolPreprocessor):
    """Features for MEGNet: atom features, bond-pair features, global state and bond indices.

    Parameters
    ----------
    max_atoms : int
        Molecules with more atoms are skipped (MolFeatureExtractionError); negative: no limit.
    add_Hs : bool
        Whether to make hydrogens explicit atoms.
    use_all_feature : bool
        Whether to use every atom and pair feature of the MEGNet paper, or only the element and
        the expanded bond length.
    atom_list : list of str or None
        The elements encoded; None means ``ATOM`` (H, C, N, O, F).
    include_unknown_atom : bool
        Whether other elements get an 'unknown' column instead of skipping the molecule.
    kekulize : bool
        Whether to kekulize the molecule.
    max_num_nbr, max_radius, expand_dim : int
        Kept as attributes; ``gdf`` (a GaussianDistance with ``expand_dim`` centers on [0, 5])
        is built from ``expand_dim`` but, as in Chainer Chemistry, the pair features use the
        default 20-center expansion.
    """

    def __init__(self, max_atoms: int = -1, add_Hs: bool = True, use_all_feature: bool = False,
                 atom_list=None, include_unknown_atom: bool = False, kekulize: bool = False,
                 max_num_nbr: int = 12, max_radius: int = 8, expand_dim: int = 100):
        super().__init__(add_Hs=add_Hs, kekulize=kekulize)
        self.max_atoms = max_atoms
        self.use_all_feature = use_all_feature
        self.atom_list = atom_list
        self.include_unknown_atom = include_unknown_atom
        self.max_num_nbr = max_num_nbr
        self.max_radius = max_radius
        self.expand_dim = expand_dim
        self.gdf = GaussianDistance(centers=numpy.linspace(0, 5, expand_dim))

    def get_input_features(self, mol: Chem.Mol) -> tuple:
        """The features of ``mol`` (``N`` atoms, ``E`` bonds).

        Returns
        -------
        tuple of numpy.ndarray
            ``(atom_feature (N, F_atom) float32, pair_feature (E, F_pair) float32,
            global_feature (2,) float32, bond_idx (2, E) int64)``.
        """
        type_check_num_atoms(mol, self.max_atoms)
        atom_feature = construct_atom_feature(mol, self.use_all_feature, self.atom_list,
                                              self.include_unknown_atom)
        pair_feature, bond_idx = construct_pair_feature(mol, self.use_all_feature)
        return atom_feature, pair_feature, construct_global_state_feature(mol), bond_idx
