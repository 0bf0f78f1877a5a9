"""Reading the (atoms, adjacency, labels) columns out of datasets, and building datasets back, for WLE."""
import numpy

from kusari.chem.dataset.parsers._collector import stack_column
from kusari.chem.datasets.numpy_tuple_dataset import NumpyTupleDataset


def create_datasets(atom_arrays, adj_arrays, teach_signals, wle_arrays=None) -> list:
    """One NumpyTupleDataset per set from the relabelled atoms (the inverse of :func:`load_dataset_elements`).

    Parameters
    ----------
    atom_arrays : list
        ``[set]``: the molecules' ``(N,)`` atom labels (a list or an array over molecules).
    adj_arrays : list
        ``[set][molecule]`` adjacency as :func:`load_dataset_elements` gives it (``(N, N)`` or
        ``(N, R, N)``); it is swapped back to ``(N, N)`` / ``(R, N, N)``.
    teach_signals : list
        ``[set][molecule]`` labels.
    wle_arrays : list or None
        ``[set]`` expanded-label indices per molecule (CWLE), placed between adjacency and labels.

    Returns
    -------
    list of NumpyTupleDataset
        Per set: ``(atoms, adjacency, labels)`` or ``(atoms, adjacency, wle_labels, labels)``;
        a column whose molecules differ in size is a 1-D object array.
    """
    sizes = {len(atom_arrays), len(adj_arrays), len(teach_signals)}
    if wle_arrays is not None:
        sizes.add(len(wle_arrays))
    if len(sizes) != 1:
        raise ValueError(
            f"create_datasets: the inputs hold different numbers of sets: atom_arrays "
            f"{len(atom_arrays)}, adj_arrays {len(adj_arrays)}, teach_signals {len(teach_signals)}"
            + ("" if wle_arrays is None else f", wle_arrays {len(wle_arrays)}"))
    datasets = []
    for s in range(len(atom_arrays)):
        columns = [stack_column(list(atom_arrays[s])),
                   stack_column([numpy.swapaxes(adj, 0, 1) for adj in adj_arrays[s]])]
        if wle_arrays is not None:
            columns.append(stack_column(list(wle_arrays[s])))
        columns.append(stack_column(list(teach_signals[s])))
        datasets.append(NumpyTupleDataset(*columns))
    return datasets


def load_dataset_elements(datasets) -> tuple:
    """Split each dataset's examples ``(atoms, adjacency, labels, ...)`` into three lists.

    The adjacency's first two axes are swapped, so that a relational ``(R, N, N)`` one becomes
    ``(N, R, N)``: :func:`wle_util.compress_relation_axis` sums over axis 1.

    Parameters
    ----------
    datasets : sequence of datasets
        Usually (train, valid, test); example ``i`` of each holds atoms ``(N,)``, adjacency
        ``(N, N)`` or ``(R, N, N)`` and labels, in that order.

    Returns
    -------
    tuple
        ``(atom_arrays, adj_arrays, teach_signals)``, each ``[set][molecule]``.
    """
    atom_arrays, adj_arrays, teach_signals = [], [], []
    for d, dataset in enumerate(datasets):
        set_atoms, set_adjs, set_signals = [], [], []
        for i in range(len(dataset)):
            example = dataset[i]
            if len(example) < 3:
                raise ValueError(f"load_dataset_elements: example {i} of dataset {d} has "
                                 f"{len(example)} items, expected (atoms, adjacency, labels)")
            set_atoms.append(example[0])
            set_adjs.append(numpy.swapaxes(example[1], 0, 1))
            set_signals.append(example[2])
        atom_arrays.append(set_atoms)
        adj_arrays.append(set_adjs)
        teach_signals.append(set_signals)
    return atom_arrays, adj_arrays, teach_signals
