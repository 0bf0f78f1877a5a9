"""SubDataset (a contiguous window of a dataset, optionally through a permutation) and dataset splits."""
import numpy

from kusari.dataset.dataset_mixin import DatasetMixin


class SubDataset(DatasetMixin):
    """The examples ``start .. finish-1`` of ``dataset``, read through ``order`` when given.

    Example ``i`` is ``dataset[order[start + i]]`` (``dataset[start + i]`` without ``order``); a
    negative ``i`` counts back from ``finish``.

    Parameters
    ----------
    dataset
        the base dataset, of length ``N``.
    start : int
        first position, ``0 <= start``.
    finish : int
        one past the last position, ``start <= finish <= N``.
    order : sequence of int
        a permutation of ``range(N)``, or None for the identity.
    """

    def __init__(self, dataset, start, finish, order=None):
        n = len(dataset)
        if not 0 <= start <= finish <= n:
            raise ValueError(
                f"SubDataset: need 0 <= start <= finish <= len(dataset), got start={start}, "
                f"finish={finish}, len(dataset)={n}")
        if order is not None and len(order) != n:
            raise ValueError(
                f"SubDataset: order has length {len(order)} but the dataset has {n} examples")
        self._dataset = dataset
        self._start = start
        self._finish = finish
        self._order = order

    def __len__(self):
        return self._finish - self._start

    def get_example(self, i):
        size = len(self)
        if not -size <= i < size:
            raise IndexError(f"SubDataset: index {i} is out of range for length {size}")
        index = self._start + i if i >= 0 else self._finish + i
        if self._order is not None:
            index = int(self._order[index])
        return self._dataset[index]


def _permutation(n: int, seed) -> numpy.ndarray:
    return numpy.random.RandomState(seed).permutation(n)


def split_dataset(dataset, split_at, order=None):
    """Split into ``(SubDataset of order[:split_at], SubDataset of order[split_at:])``.

    Parameters
    ----------
    dataset
        the dataset, of length ``N``.
    split_at : int
        size of the first part, ``0 <= split_at <= N``.
    order : sequence of int
        a permutation of ``range(N)``, or None for the identity.
    """
    n = len(dataset)
    if not 0 <= split_at <= n:
        raise ValueError(f"split_dataset: split_at must be in [0, {n}] (len(dataset)), got {split_at}")
    return SubDataset(dataset, 0, split_at, order), SubDataset(dataset, split_at, n, order)


def split_dataset_random(dataset, first_size, seed=None):
    """Split at random into parts of ``first_size`` and ``len(dataset) - first_size`` examples.

    ``seed`` (an int convertible to uint32) makes the split reproducible; None draws a fresh one.
    """
    return split_dataset(dataset, first_size, _permutation(len(dataset), seed))


def split_dataset_n(dataset, n, order=None):
    """Split into ``n`` SubDatasets of ``len(dataset) // n`` examples each (the remainder is dropped).

    Part ``i`` holds the examples ``order[i * m:(i + 1) * m]`` with ``m = len(dataset) // n``.
    """
    if n < 1:
        raise ValueError(f"split_dataset_n: n must be >= 1, got {n}")
    size = len(dataset) // n
    return [SubDataset(dataset, size * i, size * (i + 1), order) for i in range(n)]


def split_dataset_n_random(dataset, n, seed=None):
    """:func:`split_dataset_n` through a random permutation (reproducible with ``seed``)."""
    return split_dataset_n(dataset, n, _permutation(len(dataset), seed))


def get_cross_validation_datasets(dataset, n_fold, order=None):
    """``n_fold`` (train, test) splits for k-fold cross validation.

    The test parts are disjoint, cover the dataset and differ in size by at most one example; each
    train part is the rest of the dataset.

    Returns
    -------
    list of ``n_fold`` pairs ``(train SubDataset, test SubDataset)``.
    """
    n = len(dataset)
    if not 1 <= n_fold <= n:
        raise ValueError(
            f"get_cross_validation_datasets: n_fold must be in [1, {n}] (len(dataset)), got {n_fold}")
    order = numpy.arange(n) if order is None else numpy.array(order)
    borders = [n * i // n_fold for i in range(n_fold + 1)]
    splits = []
    for k in reversed(range(n_fold)):
        test_size = borders[k + 1] - borders[k]
        splits.append(split_dataset(dataset, n - test_size, order))
        # rotate right so that the next fold's test part comes last
        order = numpy.roll(order, test_size)
    return splits


def get_cross_validation_datasets_random(dataset, n_fold, seed=None):
    """:func:`get_cross_validation_datasets` through a random permutation (reproducible with ``seed``)."""
    return get_cross_validation_datasets(dataset, n_fold, _permutation(len(dataset), seed))
