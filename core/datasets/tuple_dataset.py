"""TupleDataset: zips equally long datasets; example ``i`` is ``(d_0[i], d_1[i], ...)``."""


def _is_batch_index(index) -> bool:
    return isinstance(index, (slice, list)) or getattr(index, "ndim", 0) == 1


class TupleDataset:
    """Dataset whose ``i``-th example is the tuple of the ``i``-th items of ``datasets``.

    Indexing with a slice, a list or a 1-D index array returns a list of tuples, taken from each
    underlying dataset in one vectorized lookup when it is an array.

    Parameters
    ----------
    *datasets
        sequences or arrays of the same length ``N``; e.g. images ``(N, 784)`` and labels
        ``(N,)`` give examples ``(image (784,), label ())``.
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError("TupleDataset: no datasets are given")
        length = len(datasets[0])
        for i, dataset in enumerate(datasets):
            if len(dataset) != length:
                raise ValueError(
                    f"TupleDataset: dataset {i} has length {len(dataset)} but dataset 0 has {length}")
        self._datasets = datasets
        self._length = length

    def __getitem__(self, index):
        items = [dataset[index] for dataset in self._datasets]
        if _is_batch_index(index):
            return list(zip(*items))
        return tuple(items)

    def __len__(self):
        return self._length
