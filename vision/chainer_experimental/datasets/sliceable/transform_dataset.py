"""TransformDataset (sliceable): a dataset whose examples go through a function, with named results."""
from typing import Callable

from kusari.vision.chainer_experimental.datasets.sliceable.getter_dataset import GetterDataset
from kusari.vision.chainer_experimental.datasets.sliceable.sliceable_dataset import _is_iterable


class TransformDataset(GetterDataset):
    """Example ``i`` is ``transform(dataset[i])``, whose values are named ``keys``.

    Called as ``TransformDataset(dataset, transform)`` (``keys`` omitted), it reads ``dataset[0]``
    once to count the values ``transform`` returns: a tuple of ``n`` values gets ``n`` keys named
    None, anything else one key named None (bare values).

    Parameters
    ----------
    dataset
        Any dataset with ``__len__`` and ``__getitem__``.
    keys : str or tuple of str
        The name of the one value ``transform`` returns, or the names of the values of the tuple it
        returns.
    transform : callable
        ``transform(example) -> value or tuple of values``.

    Examples
    --------
    >>> dataset = TransformDataset([1, 2, 3], ('x', 'square'), lambda x: (x, x * x))
    >>> list(dataset.slice[:, 'square'])
    [1, 4, 9]
    """

    def __init__(self, dataset, keys, transform: Callable | None = None):
        if transform is None:
            keys, transform = None, keys
        super().__init__()
        self._dataset = dataset
        self._transform = transform
        if keys is None:
            sample = self._get(0)
            keys = (None,) * len(sample) if isinstance(sample, tuple) else None
        self.add_getter(keys, self._get)
        if not _is_iterable(keys):
            self.keys = 0

    def __len__(self):
        return len(self._dataset)

    def _get(self, index):
        return self._transform(self._dataset[index])
