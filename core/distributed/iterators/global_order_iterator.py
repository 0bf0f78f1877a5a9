"""GlobalOrderIterator: one global order of the whole dataset, each global batch split over the ranks.

Its state (position, epoch, order, random state) is the same on every rank and does not depend on the
number of ranks, so a snapshot taken on N ranks resumes on M ranks with the same global batches: the
rest of the epoch is re-sharded over the M ranks, and no example is skipped or repeated.
"""
import numpy

from kusari.dataset.iterator import Iterator
from kusari.iterators import SerialIterator, ShuffleOrderSampler


class GlobalOrderIterator(Iterator):
    """Data-parallel iterator over a dataset every rank can read.

    Parameters
    ----------
    dataset
        the whole dataset (length ``N``), the same on every rank.
    global_batch_size : int
        examples per step over all ranks; each rank reads its contiguous ``global_batch_size / size``
        of them (it must divide evenly, so that the mean of the ranks' mean losses is the mean loss
        of the global batch).
    comm : CommunicatorBase
    repeat : bool
    shuffle : bool
        a new permutation of the whole dataset every epoch, drawn from ``seed``.
    seed : int
        the same on every rank (it is what keeps the ranks' orders equal).

    ``next()`` returns this rank's list of examples; the global batch of the last step of a
    non-repeating epoch may be shorter and is split as evenly as possible.
    """

    def __init__(self, dataset, global_batch_size: int, comm, repeat: bool = True, shuffle: bool = True,
                 seed: int = 0):
        if isinstance(global_batch_size, bool) or not isinstance(global_batch_size, (int, numpy.integer)) \
                or global_batch_size < 1:
            raise ValueError(f"GlobalOrderIterator: global_batch_size must be a positive int, "
                             f"got {global_batch_size!r}")
        if global_batch_size % comm.size:
            raise ValueError(f"GlobalOrderIterator: global_batch_size={global_batch_size} is not divisible "
                             f"by the number of ranks ({comm.size})")
        if len(dataset) == 0:
            raise ValueError("GlobalOrderIterator: the dataset is empty")
        self.dataset = dataset
        self.comm = comm
        sampler = ShuffleOrderSampler(numpy.random.RandomState(seed)) if shuffle else None
        # iterates over positions 0..N-1: its batches are the global batches' example indices
        self._positions = SerialIterator(numpy.arange(len(dataset)), global_batch_size, repeat=repeat,
                                         shuffle=None if shuffle else False, order_sampler=sampler)

    @property
    def global_batch_size(self) -> int:
        return self._positions.batch_size

    @property
    def batch_size(self) -> int:
        """This rank's share of a global batch."""
        return self._positions.batch_size // self.comm.size

    def __next__(self) -> list:
        indices = numpy.asarray(self._positions.next())
        mine = numpy.array_split(indices, self.comm.size)[self.comm.rank]
        return [self.dataset[int(i)] for i in mine]

    def reset(self):
        self._positions.reset()

    @property
    def repeat(self) -> bool:
        return self._positions.repeat

    @property
    def epoch(self) -> int:
        return self._positions.epoch

    @property
    def epoch_detail(self) -> float:
        return self._positions.epoch_detail

    @property
    def previous_epoch_detail(self):
        return self._positions.previous_epoch_detail

    @property
    def is_new_epoch(self) -> bool:
        return self._positions.is_new_epoch

    @property
    def current_position(self) -> int:
        return self._positions.current_position

    def serialize(self, serializer):
        """The global state only (identical on every rank, independent of the number of ranks)."""
        self._positions.serialize(serializer)
