"""DictDataset: named, equally long datasets; example ``i`` is ``{name: d_name[i], ...}``."""
from kusari.datasets.tuple_dataset import _is_batch_index


class DictDataset:
    """Dataset whose ``i``-th example is the dict mapping each keyword to its dataset's ``i``-th item.

    Indexing with a slice, a list or a 1-D index array returns a list of dicts.

    Parameters
    ----------
    **datasets
        sequences or arrays of the same length ``N``.
    """

    def __init__(self, **datasets):
        if not datasets:
            raise ValueError("DictDataset: no datasets are given")
        lengths = {key: len(dataset) for key, dataset in datasets.items()}
        if len(set(lengths.values())) != 1:
            raise ValueError(f"DictDataset: the datasets have different lengths {lengths}")
        self._datasets = datasets
        self._length = next(iter(lengths.values()))

    def __getitem__(self, index):
        items = {key: dataset[index] for key, dataset in self._datasets.items()}
        if _is_batch_index(index):
            keys = list(items)
            return [dict(zip(keys, values)) for values in zip(*items.values())]
        return items

    def __len__(self):
        return self._length
