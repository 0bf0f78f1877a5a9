"""Helpers of the Weisfeiler-Lehman embedding (WLE): expanded-label strings and their indices."""
import numpy

from kusari.chem.dataset.parsers._collector import stack_column


def to_index(mols, values) -> numpy.ndarray:
    """Replace every expanded label by its position in ``values``.

    Parameters
    ----------
    mols : list of list of str
        ``M`` molecules, each the expanded labels of its atoms.
    values : list of str
        The label vocabulary (each label once).

    Returns
    -------
    numpy.ndarray
        ``(M, N)`` int32 when all molecules have ``N`` atoms, else an ``(M,)`` object array of
        ``(N_m,)`` int32 arrays.
    """
    position = {label: i for i, label in enumerate(values)}
    indexed = []
    for m, mol in enumerate(mols):
        try:
            indexed.append(numpy.array([position[label] for label in mol], dtype=numpy.int32))
        except KeyError as e:
            raise ValueError(f"to_index: molecule {m} has the label {e.args[0]!r}, which is not "
                             f"among the {len(values)} values") from None
    return stack_column(indexed)


def compress_relation_axis(adj_array: numpy.ndarray) -> numpy.ndarray:
    """Collapse a relational adjacency ``(N, R, N)`` into ``(N, N)`` by summing over relations.

    Parameters
    ----------
    adj_array : numpy.ndarray
        ``(N, N)`` (returned as is) or ``(N, R, N)``.

    Returns
    -------
    numpy.ndarray
        ``(N, N)``.
    """
    if adj_array.ndim == 2:
        return adj_array
    if adj_array.ndim == 3:
        return adj_array.sum(axis=1)
    raise ValueError(f"compress_relation_axis: adj_array must be 2- or 3-dimensional, got shape "
                     f"{adj_array.shape}")


def get_neighbor_representation(idx: int, atom_array: numpy.ndarray, neighbors: tuple,
                                with_focus_atom: bool) -> str:
    """The expanded label of atom ``idx``: its neighbours' labels, sorted, joined by ``'.'``.

    With ``with_focus_atom`` the atom's own label and ``'-'`` come first (``'6-6.8'`` for a carbon
    bonded to a carbon and an oxygen), else only the neighbours (``'6.8'``).

    Parameters
    ----------
    idx : int
        The atom.
    atom_array : numpy.ndarray
        ``(N,)`` integer labels of the molecule's atoms.
    neighbors : tuple of numpy.ndarray
        ``numpy.nonzero`` of the ``(N, N)`` adjacency: (rows, columns); self loops are ignored.
    with_focus_atom : bool
        Whether the label starts with the atom's own label.

    Returns
    -------
    str
    """
    rows, cols = neighbors
    neighbor_labels = sorted(int(atom_array[j]) for j in cols[rows == idx] if j != idx)
    label = ".".join(str(n) for n in neighbor_labels)
    if with_focus_atom:
        label = f"{int(atom_array[idx])}-{label}"
    return label


def get_focus_node_label(expanded_label: str) -> str:
    """The atom's own label in an expanded label made with the focus atom (``'6-6.8'`` -> ``'6'``).

    Parameters
    ----------
    expanded_label : str

    Returns
    -------
    str
    """
    tokens = expanded_label.split("-")
    if len(tokens) != 2:
        raise ValueError(f"get_focus_node_label: {expanded_label!r} is not an expanded label of the "
                         "form '<atom>-<neighbours>'")
    return tokens[0]
