"""TransformDataset: applies a function to each example of a dataset when it is read."""
from kusari.dataset.dataset_mixin import DatasetMixin


class TransformDataset(DatasetMixin):
    """Dataset whose ``i``-th example is ``transform(dataset[i])``, computed lazily on access.

    Parameters
    ----------
    dataset
        the underlying dataset.
    transform : callable
        maps one example to the transformed example (e.g. data augmentation).
    """

    def __init__(self, dataset, transform):
        if not callable(transform):
            raise TypeError(f"TransformDataset: transform must be callable, got {type(transform).__name__}")
        self._dataset = dataset
        self._transform = transform

    def __len__(self):
        return len(self._dataset)

    def get_example(self, i):
        return self._transform(self._dataset[i])
