"""TupleDataset (sliceable): the values of several datasets or arrays of the same length, side by side."""
from kusari.vision.chainer_experimental.datasets.sliceable.sliceable_dataset import SliceableDataset, _as_tuple


class TupleDataset(SliceableDataset):
    """A sliceable dataset whose example ``i`` joins example ``i`` of each of ``datasets``.

    Parameters
    ----------
    *datasets
        Each one is a :class:`SliceableDataset` (contributing all its keys), a ``(name, data)``
        pair, or bare ``data`` (a list or array; its key is None). All have the same length.

    Examples
    --------
    >>> dataset = TupleDataset(('x', [0, 1, 2]), [0, 1, 4])
    >>> dataset.keys
    ('x', None)
    >>> list(dataset.slice[:, ['x', 1]])
    [(0, 0), (1, 1), (2, 4)]
    >>> TupleDataset(dataset, ('cube', [0, 1, 8])).keys
    ('x', None, 'cube')
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError("TupleDataset: at least one dataset is required")
        self._keys = []        # (name, dataset position, key position in a sliceable dataset or None)
        self._datasets = []
        self._len = None
        for dataset in datasets:
            position = len(self._datasets)
            if isinstance(dataset, SliceableDataset):
                self._keys.extend((name, position, k) for k, name in enumerate(_as_tuple(dataset.keys)))
            else:
                name, dataset = dataset if isinstance(dataset, tuple) else (None, dataset)
                self._keys.append((name, position, None))
            self._datasets.append(dataset)
            if self._len is None:
                self._len = len(dataset)
            elif len(dataset) != self._len:
                raise ValueError(f"TupleDataset: all datasets must have the same length, but dataset "
                                 f"{position} has {len(dataset)} examples and dataset 0 has {self._len}")

    def __len__(self):
        return self._len

    @property
    def keys(self):
        return tuple(name for name, _, _ in self._keys)

    def get_example_by_keys(self, index, key_indices: tuple) -> tuple:
        wanted = {}            # dataset position -> its key positions to read (None: a bare array)
        for key_index in key_indices:
            _, position, k = self._keys[key_index]
            if k is None:
                wanted[position] = None
            else:
                wanted.setdefault(position, []).append(k)
        values = {}
        for position, ks in wanted.items():
            dataset = self._datasets[position]
            if ks is None:
                values[position, None] = dataset[index]
            else:
                ks = tuple(dict.fromkeys(ks))
                values.update(zip(((position, k) for k in ks), dataset.get_example_by_keys(index, ks)))
        return tuple(values[self._keys[key_index][1:]] for key_index in key_indices)
