"""ConcatenatedDataset (sliceable): sliceable datasets with the same keys, read one after another."""
from kusari.vision.chainer_experimental.datasets.sliceable.sliceable_dataset import SliceableDataset


class ConcatenatedDataset(SliceableDataset):
    """The examples of ``datasets[0]``, then those of ``datasets[1]``, ... (all with the same ``keys``).

    Examples
    --------
    >>> from kusari.vision.chainer_experimental.datasets.sliceable import TupleDataset
    >>> dataset = ConcatenatedDataset(TupleDataset([0, 1, 2], [0, 1, 4]), TupleDataset([3, 4], [9, 16]))
    >>> list(dataset.slice[:, 0])
    [0, 1, 2, 3, 4]
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError("ConcatenatedDataset: at least one dataset is required")
        keys = datasets[0].keys
        for i, dataset in enumerate(datasets[1:], 1):
            if dataset.keys != keys:
                raise ValueError(f"ConcatenatedDataset: all datasets must have the same keys, but dataset {i} "
                                 f"has {dataset.keys!r} and dataset 0 has {keys!r}")
        self._datasets = datasets
        self._keys = keys

    def __len__(self):
        return sum(len(dataset) for dataset in self._datasets)

    @property
    def keys(self):
        return self._keys

    def get_example_by_keys(self, index, key_indices: tuple) -> tuple:
        if index >= 0:
            for dataset in self._datasets:
                if index < len(dataset):
                    return dataset.get_example_by_keys(index, key_indices)
                index -= len(dataset)
        raise IndexError(f"ConcatenatedDataset: index out of range for {len(self)} examples "
                         "(negative indices are not taken)")
