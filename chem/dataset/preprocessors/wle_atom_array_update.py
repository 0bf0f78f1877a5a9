"""One Weisfeiler-Lehman step: relabel every atom by its neighbourhood, over train/valid/test at once."""
import collections

from kusari.chem.dataset.preprocessors import wle_util


def update_atom_arrays(atom_arrays, adj_arrays, cutoff: int, with_focus_atom: bool = True) -> tuple:
    """Replace each atom's label by the index of its expanded label, shared across the sets.

    Parameters
    ----------
    atom_arrays : list of list of numpy.ndarray
        ``[set][molecule]`` ``(N,)`` integer atom labels.
    adj_arrays : list of list of numpy.ndarray
        ``[set][molecule]`` adjacency ``(N, N)`` or ``(N, R, N)``.
    cutoff : int
        When positive, expanded labels seen at most ``cutoff`` times fall back to the atom's own
        label (see :func:`shrink_expanded_labels`).
    with_focus_atom : bool
        Whether expanded labels start with the atom's own label.

    Returns
    -------
    tuple
        ``(new_atom_arrays, labels_frequencies)``: ``[set]`` arrays of indices into the keys of
        ``labels_frequencies`` (see :func:`wle_util.to_index`), and the dict ``{label: count}``
        in order of first appearance.
    """
    expanded, frequencies = list_all_expanded_labels(atom_arrays, adj_arrays, with_focus_atom)
    if cutoff > 0:
        expanded, frequencies = shrink_expanded_labels(expanded, frequencies, cutoff)
    labels = list(frequencies)
    return [wle_util.to_index(mols, labels) for mols in expanded], frequencies


def shrink_expanded_labels(expanded_atom_lists, labels_frequencies: dict, cutoff: int) -> tuple:
    """Replace the expanded labels seen at most ``cutoff`` times by the atom's own label.

    Parameters
    ----------
    expanded_atom_lists : list of list of list of str
        ``[set][molecule][atom]`` expanded labels made with the focus atom.
    labels_frequencies : dict
        ``{expanded label: count}`` over all sets.
    cutoff : int
        The largest count that is dropped.

    Returns
    -------
    tuple
        ``(new_expanded_atom_lists, new_labels_frequencies)``, the counts redone after the
        replacement, in order of first appearance.
    """
    counts = collections.Counter()
    shrunk = []
    for mols in expanded_atom_lists:
        new_mols = []
        for mol in mols:
            new_mol = [label if labels_frequencies[label] > cutoff
                       else wle_util.get_focus_node_label(label) for label in mol]
            counts.update(new_mol)
            new_mols.append(new_mol)
        shrunk.append(new_mols)
    return shrunk, dict(counts)


def list_all_expanded_labels(atom_arrays, adj_arrays, with_focus_atom: bool = True) -> tuple:
    """The expanded label of every atom of every molecule, and how often each label occurs.

    Parameters
    ----------
    atom_arrays : list of list of numpy.ndarray
        ``[set][molecule]`` ``(N,)`` integer atom labels.
    adj_arrays : list of list of numpy.ndarray
        ``[set][molecule]`` adjacency ``(N, N)`` or ``(N, R, N)`` (relations on axis 1).
    with_focus_atom : bool
        Whether labels start with the atom's own label (``'6-6.8'``) or not (``'6.8'``).

    Returns
    -------
    tuple
        ``(expanded_atom_lists, labels_frequencies)``: ``[set][molecule][atom]`` strings and the
        dict ``{label: count}`` in order of first appearance.
    """
    counts = collections.Counter()
    expanded = []
    for set_atoms, set_adjs in zip(atom_arrays, adj_arrays):
        mols = []
        for atom_array, adj_array in zip(set_atoms, set_adjs):
            adj = wle_util.compress_relation_axis(adj_array)
            n_atoms = len(atom_array)
            if adj.shape != (n_atoms, n_atoms):
                raise ValueError(
                    f"list_all_expanded_labels: {n_atoms} atoms but the adjacency is {adj_array.shape} "
                    f"(expected ({n_atoms}, {n_atoms}) or ({n_atoms}, R, {n_atoms}))")
            neighbors = adj.nonzero()
            mol = [wle_util.get_neighbor_representation(i, atom_array, neighbors, with_focus_atom)
                   for i in range(n_atoms)]
            counts.update(mol)
            mols.append(mol)
        expanded.append(mols)
    return expanded, dict(counts)
