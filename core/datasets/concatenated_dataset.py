"""ConcatenatedDataset: several datasets read one after another as a single dataset."""
import bisect
import itertools

from kusari.dataset.dataset_mixin import DatasetMixin


class ConcatenatedDataset(DatasetMixin):
    """Dataset of the examples of ``datasets[0]``, then those of ``datasets[1]``, and so on.

    Datasets of lengths 10 and 20 give one of length 30 whose example 12 is ``datasets[1][2]``.
    Negative indices count from the end.
    """

    def __init__(self, *datasets):
        self._datasets = datasets
        self._ends = list(itertools.accumulate(len(d) for d in datasets))

    def __len__(self):
        return self._ends[-1] if self._ends else 0

    def get_example(self, i):
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f"ConcatenatedDataset: index {i} is out of range for length {n}")
        i = i % n
        k = bisect.bisect_right(self._ends, i)
        return self._datasets[k][i - (self._ends[k - 1] if k else 0)]
