"""NumpyTupleDataset: a TupleDataset of NumPy arrays, saved to and loaded from ``.npz`` files.

The file layout is Chainer Chemistry's (``numpy.savez`` with members ``arr_0``, ``arr_1``, ...), so
either library reads the other's files. Ragged features (one molecule's adjacency matrix per
example, of varying size) are 1-D object arrays, which ``.npz`` stores as pickles: loading them
runs code from the file, so :meth:`NumpyTupleDataset.load` refuses them unless the caller opts in.
"""
import os

import numpy

from kusari.datasets import TupleDataset
from kusari.utils.atomic_write import open_for_write


class NumpyTupleDataset(TupleDataset):
    """Dataset whose ``i``-th example is ``(d_0[i], d_1[i], ...)`` for NumPy arrays ``d_k``.

    Indexing with an integer gives a tuple; with a slice, a list or an index array, a list of
    tuples (as :class:`kusari.datasets.TupleDataset`).

    Parameters
    ----------
    *datasets : numpy.ndarray
        Arrays of the same length ``N``, e.g. atomic numbers ``(N, n_atoms)`` int32, adjacency
        ``(N, n_atoms, n_atoms)`` float32 and labels ``(N, n_labels)``; a ragged feature is a
        1-D object array of ``N`` arrays.
    """

    def get_datasets(self) -> tuple:
        """The underlying arrays, in the order given to the constructor.

        Returns
        -------
        tuple of numpy.ndarray
            ``k``-th item: the ``k``-th dataset, length ``N``.
        """
        return self._datasets

    @property
    def converter(self):
        """The batch converter for this dataset: :func:`kusari.chem.dataset.converters.concat_mols`."""
        # imported here: the converters import the datasets package
        from kusari.chem.dataset.converters import concat_mols
        return concat_mols

    @property
    def features(self):
        """Two-dimensional access: ``features[i, j]`` is item ``i`` of the ``j``-th array.

        ``i`` and ``j`` may be ints, slices, index lists or boolean masks; ``features[i]`` means
        ``features[i, :]`` (a tuple, one entry per array). E.g. ``dataset.features[:, -1]`` is
        the label array.

        Returns
        -------
        kusari.chem.dataset.indexers.NumpyTupleDatasetFeatureIndexer
        """
        # imported here: kusari.chem.dataset's package imports this module
        from kusari.chem.dataset.indexers.numpy_tuple_dataset_feature_indexer import (
            NumpyTupleDatasetFeatureIndexer)
        return NumpyTupleDatasetFeatureIndexer(self)

    @classmethod
    def save(cls, filepath, numpy_tuple_dataset: "NumpyTupleDataset") -> None:
        """Write ``numpy_tuple_dataset`` to ``filepath`` as ``.npz`` (members ``arr_0``, ``arr_1``, ...).

        As ``numpy.savez`` does, ``'.npz'`` is appended to a path that does not end with it. The
        file is written atomically: readers see the old file or the complete new one. Object
        (ragged) arrays are stored as pickles, as Chainer Chemistry stores them, so that its
        ``NumpyTupleDataset.load`` reads the file.

        Parameters
        ----------
        filepath : str, os.PathLike or binary file object
            Where to write.
        numpy_tuple_dataset : NumpyTupleDataset
            The dataset to write.
        """
        if not isinstance(numpy_tuple_dataset, NumpyTupleDataset):
            raise TypeError("NumpyTupleDataset.save: numpy_tuple_dataset must be a NumpyTupleDataset, "
                            f"got {type(numpy_tuple_dataset).__name__}")
        if not hasattr(filepath, "write"):
            filepath = os.fspath(filepath)
            if not filepath.endswith(".npz"):
                filepath += ".npz"
        with open_for_write(filepath) as f:
            numpy.savez(f, *numpy_tuple_dataset._datasets)

    @classmethod
    def load(cls, filepath, allow_pickle: bool = False) -> "NumpyTupleDataset | None":
        """Read a dataset written by :meth:`save` (or by Chainer Chemistry).

        Unlike Chainer Chemistry (whose default is ``allow_pickle=True``), object arrays are
        refused by default: they are pickles, and unpickling runs code chosen by whoever wrote
        the file. Pass ``allow_pickle=True`` only for files you made or trust.

        Parameters
        ----------
        filepath : str or os.PathLike
            The ``.npz`` file.
        allow_pickle : bool
            Whether to load object (ragged) arrays, by unpickling them.

        Returns
        -------
        NumpyTupleDataset or None
            The dataset, one array per member ``arr_0``, ``arr_1``, ...; ``None`` when
            ``filepath`` does not exist (Chainer Chemistry's cache check relies on this).
        """
        if not os.path.exists(filepath):
            return None
        arrays = []
        with numpy.load(filepath, allow_pickle=allow_pickle) as npz:
            while f"arr_{len(arrays)}" in npz.files:
                key = f"arr_{len(arrays)}"
                try:
                    arrays.append(npz[key])
                except ValueError as e:
                    if allow_pickle:
                        raise
                    raise ValueError(
                        f"NumpyTupleDataset.load: member '{key}' of {os.fspath(filepath)} is an object "
                        "(ragged) array, stored as a pickle; unpickling runs code from the file, so it "
                        "is refused by default. Pass allow_pickle=True if you trust this file") from e
        if not arrays:
            raise ValueError(f"NumpyTupleDataset.load: {os.fspath(filepath)} has no member 'arr_0' "
                             f"(members: {npz.files})")
        return cls(*arrays)
