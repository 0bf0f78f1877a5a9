"""SliceableDataset: a dataset whose examples are named values (``keys``), with ``slice[indices, keys]`` views.

``dataset.slice[indices]``, ``dataset.slice[indices, keys]`` return a :class:`SlicedDataset`: a view that
reads only the selected examples and, of each, only the selected values. ``indices`` is a slice, a list
(or 1-D array) of indices, or a list of booleans as long as the dataset; ``keys`` is a key name or a
position, or a list or tuple of them (or of booleans, one per key). A single key gives examples that are
bare values; a list or tuple gives tuples, even of one value.
"""
import numbers

import numpy

from kusari.dataset import DatasetMixin


def _is_iterable(x) -> bool:
    """Whether ``x`` selects several keys or examples (a string names one key)."""
    return not isinstance(x, str) and hasattr(x, "__iter__")


def _as_tuple(x) -> tuple:
    return tuple(x) if _is_iterable(x) else (x,)


def _bool_to_indices(selection, length: int, fname: str, what: str):
    """The positions of the True entries when ``selection`` holds only booleans; else its entries.

    A boolean selection must have one entry per item (``length`` of them); an empty selection selects
    nothing.
    """
    if isinstance(selection, numpy.ndarray) and selection.dtype != bool:
        return selection
    if not _is_iterable(selection):
        raise TypeError(f"{fname}: {what} must be selected by a list of positions or of booleans, got "
                        f"{type(selection).__name__} {selection!r}")
    flags = list(selection)
    if not all(isinstance(flag, (bool, numpy.bool_)) for flag in flags):
        return flags
    if flags and len(flags) != length:
        raise ValueError(f"{fname}: a boolean selection of {what} has {len(flags)} entries but there are "
                         f"{length} {what}")
    return [i for i, flag in enumerate(flags) if flag]


def _as_key_indices(keys, key_names, fname: str) -> tuple:
    """The positions in ``key_names`` of ``keys`` (names, positions, or one boolean per key)."""
    key_names = _as_tuple(key_names)
    indices = []
    for key in _bool_to_indices(_as_tuple(keys), len(key_names), fname, "keys"):
        if isinstance(key, numbers.Integral):
            index = key + len(key_names) if key < 0 else key
            if not 0 <= index < len(key_names):
                raise IndexError(f"{fname}: key position {key} is out of range for {len(key_names)} keys "
                                 f"{key_names}")
        else:
            try:
                index = key_names.index(key)
            except ValueError:
                raise KeyError(f"{fname}: no key {key!r} (keys: {key_names})") from None
        indices.append(int(index))
    return tuple(indices)


class SliceableDataset(DatasetMixin):
    """A dataset of named values that supports ``dataset.slice[indices, keys]``.

    Subclasses implement ``__len__``, the property ``keys`` (a tuple of names, or a single name when
    each example is one bare value) and ``get_example_by_keys(index, key_indices)``. Most datasets
    are built from :class:`GetterDataset` or :class:`TupleDataset` instead.
    """

    @property
    def keys(self):
        """The names of an example's values: a tuple, or one name (then an example is a bare value)."""
        raise NotImplementedError(f"{type(self).__name__} must implement the property keys")

    def get_example_by_keys(self, index, key_indices: tuple) -> tuple:
        """The values at positions ``key_indices`` (a tuple of ints) of example ``index``, as a tuple."""
        raise NotImplementedError(f"{type(self).__name__} must implement get_example_by_keys(index, key_indices)")

    def get_example(self, index):
        keys = self.keys
        if isinstance(keys, tuple):
            return self.get_example_by_keys(index, tuple(range(len(keys))))
        return self.get_example_by_keys(index, (0,))[0]

    @property
    def slice(self) -> "SliceHelper":
        """``dataset.slice[indices]`` or ``dataset.slice[indices, keys]``: a :class:`SlicedDataset` view."""
        return SliceHelper(self)

    def __iter__(self):
        return (self.get_example(i) for i in range(len(self)))


class SliceHelper:
    """What ``SliceableDataset.slice`` returns: indexing it makes a :class:`SlicedDataset`."""

    def __init__(self, dataset: SliceableDataset):
        self._dataset = dataset

    def __getitem__(self, args) -> "SlicedDataset":
        if isinstance(args, tuple):
            if len(args) != 2:
                raise ValueError(f"SliceableDataset.slice: expected [indices] or [indices, keys], got "
                                 f"{len(args)} items {args!r}")
            indices, keys = args
        else:
            indices, keys = args, self._dataset.keys
        if isinstance(indices, slice):
            indices = range(*indices.indices(len(self._dataset)))
        else:
            indices = _bool_to_indices(indices, len(self._dataset), "SliceableDataset.slice", "examples")
        key_indices = _as_key_indices(keys, self._dataset.keys, "SliceableDataset.slice")
        if not _is_iterable(keys):
            key_indices = key_indices[0]
        return SlicedDataset(self._dataset, indices, key_indices)


class SlicedDataset(SliceableDataset):
    """A view of some examples (``indices``) and values (``key_indices``) of a :class:`SliceableDataset`.

    Parameters
    ----------
    dataset : SliceableDataset
        The viewed dataset.
    indices : range, list or 1-D integer array
        Example ``i`` of the view is example ``indices[i]`` of ``dataset``.
    key_indices : tuple of int, or int
        The positions of the viewed keys in ``dataset.keys``; a bare int gives bare values.
    """

    def __init__(self, dataset: SliceableDataset, indices, key_indices):
        self._dataset = dataset
        self._indices = indices
        self._key_indices = key_indices

    def __len__(self):
        return len(self._indices)

    @property
    def keys(self):
        names = _as_tuple(self._dataset.keys)
        if isinstance(self._key_indices, tuple):
            return tuple(names[k] for k in self._key_indices)
        return names[self._key_indices]

    def get_example_by_keys(self, index, key_indices: tuple) -> tuple:
        own = _as_tuple(self._key_indices)
        # a range or a list checks the bounds and counts negative indices from the end of the view
        return self._dataset.get_example_by_keys(self._indices[index], tuple(own[k] for k in key_indices))
