"""The state every index-based iterator shares: position, epoch, order, and how a batch advances them."""
from typing import NamedTuple

import numpy

from kusari.dataset.iterator import Iterator
from kusari.iterators.order_samplers import ShuffleOrderSampler


class IteratorState(NamedTuple):
    """Where an iterator stands: ``order`` is None for the identity order (no sampler)."""

    current_position: int
    epoch: int
    is_new_epoch: bool
    order: numpy.ndarray | None


def _checked(order, sampler, length: int):
    if len(order) != length:
        raise ValueError(f"order sampler {sampler!r} returned an order of length {len(order)}, expected {length}")
    return order


def advance(state: IteratorState, batch_size: int, repeat: bool, order_sampler, dataset_length: int):
    """The state after the next batch, and that batch's indices (None once a non-repeating sweep ended).

    A batch that crosses the end of the order takes the rest of this epoch, asks ``order_sampler``
    for the next order and continues from its start (unless ``repeat`` is False).
    """
    position, epoch, _, order = state
    if not repeat and epoch > 0:
        return state, None
    size = dataset_length if order is None else len(order)
    end = position + batch_size if repeat else min(position + batch_size, size)
    pieces = []
    is_new_epoch = False
    while end >= size:
        pieces.append(numpy.arange(position, size) if order is None else order[position:size])
        if order is not None:
            order = _checked(order_sampler(order, position), order_sampler, len(order))
        position = 0
        end = end - size if repeat else 0
        epoch += 1
        is_new_epoch = True
    pieces.append(numpy.arange(position, end) if order is None else order[position:end])
    indices = numpy.concatenate(pieces) if len(pieces) > 1 else pieces[0]
    return IteratorState(end, epoch, is_new_epoch, order), indices


def fetch_examples(dataset, indices) -> list:
    """``[dataset[i] for i in indices]`` with plain Python int indices."""
    return [dataset[i] for i in numpy.asarray(indices).tolist()]


class OrderedIterator(Iterator):
    """Base of SerialIterator and the prefetching iterators: the epoch bookkeeping and its serialization.

    Subclasses implement ``__next__`` with :func:`advance` and :func:`fetch_examples`.
    """

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None, order_sampler=None):
        name = type(self).__name__
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, numpy.integer)) \
                or batch_size < 1:
            raise ValueError(f"{name}: batch_size must be a positive int, got {batch_size!r}")
        if len(dataset) == 0:
            raise ValueError(f"{name}: the dataset is empty")
        if shuffle is not None and order_sampler is not None:
            raise ValueError(
                f"{name}: give shuffle or order_sampler, not both (shuffle={shuffle!r} with a custom "
                "order_sampler); leave shuffle=None to use the sampler")
        if order_sampler is None and shuffle is not False:
            order_sampler = ShuffleOrderSampler()
        self.dataset = dataset
        self.batch_size = int(batch_size)
        self._repeat = bool(repeat)
        self.order_sampler = order_sampler
        self.reset()

    def reset(self):
        """Go back to the start of the first epoch (drawing a fresh order when shuffling)."""
        order = None
        if self.order_sampler is not None:
            n = len(self.dataset)
            order = _checked(self.order_sampler(numpy.arange(n), 0), self.order_sampler, n)
        self._state = IteratorState(0, 0, False, order)
        self._previous_epoch_detail = -1.0

    def _advance(self, state: IteratorState):
        return advance(state, self.batch_size, self._repeat, self.order_sampler, len(self.dataset))

    def _commit(self, state: IteratorState) -> None:
        """Make ``state`` current after handing out the batch that leads to it."""
        self._previous_epoch_detail = self.epoch_detail
        self._state = state

    @property
    def repeat(self) -> bool:
        return self._repeat

    @property
    def current_position(self) -> int:
        return self._state.current_position

    @property
    def epoch(self) -> int:
        return self._state.epoch

    @property
    def is_new_epoch(self) -> bool:
        return self._state.is_new_epoch

    @property
    def epoch_detail(self) -> float:
        order = self._state.order
        size = len(self.dataset) if order is None else len(order)
        return self.epoch + self.current_position / size

    @property
    def previous_epoch_detail(self) -> float | None:
        return None if self._previous_epoch_detail < 0 else self._previous_epoch_detail

    def _sampler_to_save(self):
        """The order sampler as of the current state (prefetching iterators keep a copy)."""
        return self.order_sampler

    def serialize(self, serializer):
        """Save or load position, epoch, is_new_epoch, order, previous_epoch_detail and the sampler state."""
        position = serializer("current_position", self.current_position)
        epoch = serializer("epoch", self.epoch)
        is_new_epoch = serializer("is_new_epoch", self.is_new_epoch)
        order = self._state.order
        if order is not None:
            order = serializer("order", order.copy() if serializer.is_loading else order)
        self._previous_epoch_detail = serializer("previous_epoch_detail", self._previous_epoch_detail)
        sampler = self.order_sampler if serializer.is_loading else self._sampler_to_save()
        if hasattr(sampler, "serialize"):
            sampler.serialize(serializer["order_sampler"])
        self._state = IteratorState(int(position), int(epoch), bool(is_new_epoch), order)
