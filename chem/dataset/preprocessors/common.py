"""Graph features shared by the molecule preprocessors: atom arrays, adjacency matrices, supernode features."""
import numpy
from rdkit import Chem
from rdkit.Chem import rdmolops

from kusari.chem.config import MAX_ATOMIC_NUM  # NOQA  (re-exported: upstream's common module has it)

_BOND_CHANNEL = {
    Chem.BondType.SINGLE: 0,
    Chem.BondType.DOUBLE: 1,
    Chem.BondType.TRIPLE: 2,
    Chem.BondType.AROMATIC: 3,
}


class MolFeatureExtractionError(Exception):
    """A molecule's features cannot be extracted; the parsers skip the molecule and count it."""


def type_check_num_atoms(mol: Chem.Mol, num_max_atoms: int = -1) -> None:
    """Raise :class:`MolFeatureExtractionError` if ``mol`` has more than ``num_max_atoms`` atoms.

    Parameters
    ----------
    mol : rdkit.Chem.Mol
        The molecule.
    num_max_atoms : int
        The limit; negative means no limit.
    """
    num_atoms = mol.GetNumAtoms()
    if 0 <= num_max_atoms < num_atoms:
        raise MolFeatureExtractionError(
            f"type_check_num_atoms: the molecule has {num_atoms} atoms, more than "
            f"num_max_atoms={num_max_atoms}")


def check_max_atoms_and_out_size(caller: str, max_atoms: int, out_size: int) -> None:
    """Raise ValueError when both limits are set and ``max_atoms > out_size`` (molecules would not fit).

    Parameters
    ----------
    caller : str
        Name used in the error message.
    max_atoms, out_size : int
        A preprocessor's atom limit and padded size; negative means unset.
    """
    if max_atoms >= 0 and out_size >= 0 and max_atoms > out_size:
        raise ValueError(f"{caller}: max_atoms={max_atoms} must be less than or equal to "
                         f"out_size={out_size}")


def _padded_size(caller: str, num_atoms: int, out_size: int) -> int:
    if out_size < 0:
        return num_atoms
    if out_size < num_atoms:
        raise ValueError(f"{caller}: out_size={out_size} must be negative or at least the number "
                         f"of atoms in the molecule ({num_atoms})")
    return out_size


def construct_atomic_number_array(mol: Chem.Mol, out_size: int = -1) -> numpy.ndarray:
    """The atomic numbers of ``mol``'s atoms, zero-padded to ``out_size``.

    Parameters
    ----------
    mol : rdkit.Chem.Mol
        The molecule, with ``N`` atoms.
    out_size : int
        Length of the result (``>= N``); negative means ``N``. Padding entries are 0.

    Returns
    -------
    numpy.ndarray
        ``(out_size,)`` or ``(N,)``, int32.
    """
    numbers = [atom.GetAtomicNum() for atom in mol.GetAtoms()]
    size = _padded_size("construct_atomic_number_array", len(numbers), out_size)
    atom_array = numpy.zeros(size, dtype=numpy.int32)
    atom_array[:len(numbers)] = numbers
    return atom_array


def construct_adj_matrix(mol: Chem.Mol, out_size: int = -1,
                         self_connection: bool = True) -> numpy.ndarray:
    """The adjacency matrix of ``mol`` (1 where a bond joins two atoms), zero-padded to ``out_size``.

    Parameters
    ----------
    mol : rdkit.Chem.Mol
        The molecule, with ``N`` atoms.
    out_size : int
        Side of the result (``>= N``); negative means ``N``. Padding rows and columns are 0.
    self_connection : bool
        Whether the ``N`` atoms' diagonal entries are 1.

    Returns
    -------
    numpy.ndarray
        ``(out_size, out_size)`` or ``(N, N)``, float32.
    """
    adj = rdmolops.GetAdjacencyMatrix(mol)
    n = adj.shape[0]
    size = _padded_size("construct_adj_matrix", n, out_size)
    adj_array = numpy.zeros((size, size), dtype=numpy.float32)
    adj_array[:n, :n] = adj
    if self_connection:
        adj_array[numpy.arange(n), numpy.arange(n)] = 1
    return adj_array


def construct_discrete_edge_matrix(mol: Chem.Mol, out_size: int = -1,
                                   add_self_connection_channel: bool = False) -> numpy.ndarray:
    """One adjacency matrix per bond type (single, double, triple, aromatic), zero-padded to ``out_size``.

    Parameters
    ----------
    mol : rdkit.Chem.Mol
        The molecule, with ``N`` atoms.
    out_size : int
        Side of each matrix (``>= N``); negative means ``N``.
    add_self_connection_channel : bool
        Whether to append a fifth channel with 1 on the ``N`` atoms' diagonal.

    Returns
    -------
    numpy.ndarray
        ``(4, size, size)``, or ``(5, size, size)`` with the self-connection channel, float32.
    """
    if mol is None:
        raise MolFeatureExtractionError("construct_discrete_edge_matrix: mol is None")
    n = mol.GetNumAtoms()
    size = _padded_size("construct_discrete_edge_matrix", n, out_size)
    channels = 5 if add_self_connection_channel else 4
    adjs = numpy.zeros((channels, size, size), dtype=numpy.float32)
    for bond in mol.GetBonds():
        channel = _BOND_CHANNEL.get(bond.GetBondType())
        if channel is None:
            raise MolFeatureExtractionError(
                f"construct_discrete_edge_matrix: bond {bond.GetIdx()} has type "
                f"{bond.GetBondType()}, not one of {sorted(str(t) for t in _BOND_CHANNEL)}")
        i, j = bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()
        adjs[channel, i, j] = 1
        adjs[channel, j, i] = 1
    if add_self_connection_channel:
        # only the real atoms: padding stays disconnected
        adjs[-1, numpy.arange(n), numpy.arange(n)] = 1
    return adjs


def mol_basic_info_feature(mol: Chem.Mol, atom_array: numpy.ndarray,
                           adj: numpy.ndarray) -> numpy.ndarray:
    """``[number of atoms, sum of adj]`` (the sum counts each bond twice, plus any self loops).

    Returns
    -------
    numpy.ndarray
        ``(2,)``.
    """
    n_atoms = mol.GetNumAtoms()
    if n_atoms != len(atom_array):
        raise ValueError(f"mol_basic_info_feature: the molecule has {n_atoms} atoms but "
                         f"atom_array has length {len(atom_array)} (it must not be padded)")
    return numpy.asarray([n_atoms, adj.sum()])


def _atom_counts(atom_array: numpy.ndarray) -> numpy.ndarray:
    # index 0 is padding, so it is dropped from the features
    return numpy.bincount(atom_array, minlength=MAX_ATOMIC_NUM + 1)[1:]


def mol_atom_type_feature(mol: Chem.Mol, atom_array: numpy.ndarray,
                          adj: numpy.ndarray) -> numpy.ndarray:
    """1 for each element (atomic numbers 1 .. MAX_ATOMIC_NUM) present in the molecule, else 0.

    Returns
    -------
    numpy.ndarray
        ``(MAX_ATOMIC_NUM,)``.
    """
    return (_atom_counts(atom_array) > 0).astype(numpy.float64)


def mol_atom_freq_feature(mol: Chem.Mol, atom_array: numpy.ndarray,
                          adj: numpy.ndarray) -> numpy.ndarray:
    """Fraction of ``atom_array``'s entries that are each element (atomic numbers 1 .. MAX_ATOMIC_NUM).

    Returns
    -------
    numpy.ndarray
        ``(MAX_ATOMIC_NUM,)``.
    """
    return _atom_counts(atom_array) / len(atom_array)


def _edge_channels(adj: numpy.ndarray) -> numpy.ndarray:
    # one row per edge type: a 2-D adjacency is a single type
    return adj.reshape((adj.shape[0] if adj.ndim == 3 else 1, -1))


def mol_bond_type_feature(mol: Chem.Mol, atom_array: numpy.ndarray,
                          adj: numpy.ndarray) -> numpy.ndarray:
    """The largest entry of each edge-type channel of ``adj`` (1 if that bond type occurs).

    Returns
    -------
    numpy.ndarray
        ``(E,)`` for ``adj`` of shape ``(E, N, N)``, ``(1,)`` for ``(N, N)``.
    """
    return _edge_channels(adj).max(axis=1)


def mol_bond_freq_feature(mol: Chem.Mol, atom_array: numpy.ndarray,
                          adj: numpy.ndarray) -> numpy.ndarray:
    """Each edge-type channel's share of the total of ``adj`` (zeros when ``adj`` is all zero).

    Returns
    -------
    numpy.ndarray
        ``(E,)`` for ``adj`` of shape ``(E, N, N)``, ``(1,)`` for ``(N, N)``.
    """
    sums = _edge_channels(adj).sum(axis=1)
    total = sums.sum()
    return sums / total if total != 0 else sums


def construct_supernode_feature(mol: Chem.Mol, atom_array: numpy.ndarray, adj: numpy.ndarray,
                                feature_functions=None) -> numpy.ndarray:
    """The input feature of a graph-warp supernode: ``feature_functions``' outputs, concatenated.

    Parameters
    ----------
    mol : rdkit.Chem.Mol
        The molecule, with ``N`` atoms.
    atom_array : numpy.ndarray
        ``(N,)`` atomic numbers (unpadded, for the default features).
    adj : numpy.ndarray
        ``(N, N)`` adjacency or ``(E, N, N)`` edge-type adjacency.
    feature_functions : list of callable or None
        Each maps ``(mol, atom_array, adj)`` to a 1-D array. Default: basic info, bond type,
        bond frequency, atom type and atom frequency features.

    Returns
    -------
    numpy.ndarray
        ``(2 + 2 * E + 2 * MAX_ATOMIC_NUM,)`` float32 for the default features (``E = 1`` for a
        2-D ``adj``).
    """
    if feature_functions is None:
        feature_functions = [mol_basic_info_feature, mol_bond_type_feature, mol_bond_freq_feature,
                             mol_atom_type_feature, mol_atom_freq_feature]
    return numpy.concatenate(
        [f(mol, atom_array, adj) for f in feature_functions]).astype(numpy.float32)
