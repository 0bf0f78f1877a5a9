"""create_multi_node_iterator: one rank iterates, every rank gets the same batches (model parallelism)."""
from kusari.dataset.iterator import Iterator


class _MultiNodeIterator(Iterator):
    """On ``rank_master`` reads ``actual_iterator``; broadcasts each batch and the epoch state."""

    def __init__(self, actual_iterator, comm, rank_master):
        self.actual_iterator = actual_iterator
        self.comm = comm
        self.rank_master = rank_master
        self._epoch, self._epoch_detail, self._is_new_epoch = 0, 0.0, False
        self._previous_epoch_detail = None

    def __next__(self):
        message = None
        if self.comm.rank == self.rank_master:
            it = self.actual_iterator
            try:
                batch = it.next()
            except StopIteration:
                message = ("stop",)
            else:
                message = ("batch", batch, it.epoch, it.epoch_detail, it.is_new_epoch, it.previous_epoch_detail)
        message = self.comm.bcast_obj(message, root=self.rank_master)
        if message[0] == "stop":
            raise StopIteration
        _, batch, self._epoch, self._epoch_detail, self._is_new_epoch, self._previous_epoch_detail = message
        return batch

    @property
    def epoch(self) -> int:
        return self._epoch

    @property
    def epoch_detail(self) -> float:
        return self._epoch_detail

    @property
    def previous_epoch_detail(self):
        return self._previous_epoch_detail

    @property
    def is_new_epoch(self) -> bool:
        return self._is_new_epoch

    def reset(self):
        if self.comm.rank == self.rank_master:
            self.actual_iterator.reset()

    def serialize(self, serializer):
        if self.actual_iterator is not None:
            self.actual_iterator.serialize(serializer)


def create_multi_node_iterator(actual_iterator, communicator, rank_master: int = 0):
    """An iterator that yields, on every rank, the batches ``actual_iterator`` yields on ``rank_master``.

    For model parallelism where several ranks need the same inputs (e.g. the labels on the last
    stage). ``actual_iterator`` may be None on the other ranks. Each batch is pickled and broadcast.
    """
    return _MultiNodeIterator(actual_iterator, communicator, rank_master)
