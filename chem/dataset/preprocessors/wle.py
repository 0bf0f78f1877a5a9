"""Weisfeiler-Lehman embedding (WLE) of molecule datasets: atoms relabelled by their neighbourhoods.

Chainer Chemistry's label expansion: each atom's label becomes the string of its own label and its
neighbours' sorted labels, and then that string's index in a vocabulary shared by train, valid and
test. CWLE (concatenated WLE) keeps the atom labels and adds the neighbourhood labels as a column.
"""
from kusari.chem.dataset.preprocessors import wle_atom_array_update as wle_update
from kusari.chem.dataset.preprocessors import wle_io


def apply_wle_for_datasets(datasets, cutoff: int = 0, k: int = 1) -> tuple:
    """Relabel the atoms of all ``datasets`` by ``k`` rounds of Weisfeiler-Lehman expansion.

    Parameters
    ----------
    datasets : sequence of NumpyTupleDataset
        Usually (train, valid, test); examples ``(atoms (N,), adjacency (N, N) or (R, N, N),
        labels)``.
    cutoff : int
        When positive, expanded labels seen at most ``cutoff`` times (in one round) are replaced
        by the atom's own label.
    k : int
        Number of rounds, at least 1.

    Returns
    -------
    tuple
        ``(datasets, expanded_labels, labels_frequencies)``: the datasets with atoms replaced by
        int32 indices into ``expanded_labels`` (the last round's vocabulary, a list of str), and
        the dict ``{label: count}`` over all datasets.
    """
    if k <= 0:
        raise ValueError(f"apply_wle_for_datasets: k must be a positive number of rounds, got {k}")
    atom_arrays, adj_arrays, teach_signals = wle_io.load_dataset_elements(datasets)
    for _ in range(k):
        atom_arrays, frequencies = wle_update.update_atom_arrays(atom_arrays, adj_arrays, cutoff)
    expanded = wle_io.create_datasets(atom_arrays, adj_arrays, teach_signals)
    return tuple(expanded), list(frequencies), frequencies


def apply_cwle_for_datasets(datasets, k: int = 1) -> tuple:
    """Add a column of neighbourhood labels (concatenated WLE) to all ``datasets``.

    The first ``k - 1`` rounds relabel the atoms as :func:`apply_wle_for_datasets` does (no
    cutoff); the last round labels each atom by its neighbours only, into the new column.

    Parameters
    ----------
    datasets : sequence of NumpyTupleDataset
        As for :func:`apply_wle_for_datasets`.
    k : int
        Number of rounds, at least 1.

    Returns
    -------
    tuple
        ``(datasets, expanded_labels, labels_frequencies)``: examples become ``(atoms,
        adjacency, wle_labels, labels)`` with ``wle_labels`` int32 indices into
        ``expanded_labels``; ``labels_frequencies`` counts the last round's labels.
    """
    if k <= 0:
        raise ValueError(f"apply_cwle_for_datasets: k must be a positive number of rounds, got {k}")
    atom_arrays, adj_arrays, teach_signals = wle_io.load_dataset_elements(datasets)
    for _ in range(k - 1):
        atom_arrays, _ = wle_update.update_atom_arrays(atom_arrays, adj_arrays, 0)
    wle_arrays, frequencies = wle_update.update_atom_arrays(
        atom_arrays, adj_arrays, 0, with_focus_atom=False)
    expanded = wle_io.create_datasets(atom_arrays, adj_arrays, teach_signals, wle_arrays)
    return tuple(expanded), list(frequencies), frequencies


_FINDMAXIDX_COLUMNS = {"atom_label": 0, "wle_label": 2}


def findmaxidx(datasets, target: str = "atom_label") -> int:
    """One more than the largest label in a column of the datasets: the embedding's vocabulary size.

    Parameters
    ----------
    datasets : sequence of datasets
        Examples as :func:`apply_cwle_for_datasets` returns them (or ``(atoms, adjacency,
        labels)`` for ``'atom_label'``).
    target : {'atom_label', 'wle_label'}
        The atoms (item 0) or the CWLE neighbourhood labels (item 2).

    Returns
    -------
    int
    """
    if target not in _FINDMAXIDX_COLUMNS:
        raise ValueError(f"findmaxidx: target must be 'atom_label' or 'wle_label', got {target!r}")
    column = _FINDMAXIDX_COLUMNS[target]
    n_items = len(datasets[0][0])
    if column >= n_items:
        raise ValueError(f"findmaxidx: target={target!r} is item {column} of each example, but the "
                         f"examples have {n_items} items")
    max_idx = -1
    for dataset in datasets:
        for i in range(len(dataset)):
            labels = dataset[i][column]
            if len(labels):
                max_idx = max(max_idx, int(labels.max()))
    return max_idx + 1
