"""The base of iterators that load upcoming batches in a pool of worker threads or processes."""
import collections
import copy
import weakref

import numpy

from kusari.iterators._ordered_iterator import OrderedIterator


class PrefetchIterator(OrderedIterator):
    """Keeps up to ``n_prefetch`` batches loading in a ``concurrent.futures`` executor.

    Indices come from the same state machine as SerialIterator, so given the same order sampler
    state the batches are identical. Each prefetched batch carries the state the iterator moves to
    when it is handed out, and a copy of the order sampler taken right after the sampler produced
    that state's order: serialization saves what the consumer has seen, not what was prefetched.

    Subclasses implement ``_create_executor()``, ``_task`` (called in a worker with a list of
    indices, returns the examples) and ``_shutdown_executor(executor, wait)``.
    """

    def __init__(self, dataset, batch_size, repeat, shuffle, order_sampler, workers, n_prefetch):
        """``workers``: (argument name, value), e.g. ``("n_threads", 4)``."""
        name = type(self).__name__
        for arg, value in (workers, ("n_prefetch", n_prefetch)):
            if isinstance(value, bool) or not isinstance(value, (int, numpy.integer)) or value < 1:
                raise ValueError(f"{name}: {arg} must be a positive int, got {value!r}")
        self._n_workers = int(workers[1])
        self._n_prefetch = int(n_prefetch)
        self._pending = collections.deque()
        self._executor = None
        self._finalizer = None
        self._closed_because = None
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler)

    # -- state ---------------------------------------------------------------------------------
    def _snapshot_sampler(self):
        sampler = self.order_sampler
        return copy.deepcopy(sampler) if hasattr(sampler, "serialize") else None

    def _rewind_prefetch(self):
        """Drop prefetched batches; prefetching restarts from the current state."""
        for _, _, futures in self._pending:
            for future in futures:
                future.cancel()
        self._pending.clear()
        self._ahead = self._state
        self._sampler_now = self._snapshot_sampler()

    def reset(self):
        super().reset()
        self._rewind_prefetch()

    def _sampler_to_save(self):
        return self._sampler_now

    def serialize(self, serializer):
        super().serialize(serializer)
        if serializer.is_loading:
            self._rewind_prefetch()

    # -- loading -------------------------------------------------------------------------------
    def _submit(self, indices):
        if self._executor is None:
            self._executor = self._create_executor()
            self._finalizer = weakref.finalize(self, type(self)._shutdown_executor, self._executor, False)
        chunks = numpy.array_split(indices, min(self._n_workers, len(indices)))
        return [self._executor.submit(self._task, chunk.tolist()) for chunk in chunks]

    def _prefetch(self):
        while len(self._pending) < self._n_prefetch and self._ahead is not None:
            state, indices = self._advance(self._ahead)
            if indices is None:
                self._ahead = None
                break
            sampler = self._pending[-1][1] if self._pending else self._sampler_now
            if state.order is not self._ahead.order:  # the sampler drew a new order
                sampler = self._snapshot_sampler()
            self._pending.append((state, sampler, self._submit(indices)))
            self._ahead = state

    def _gather(self, futures) -> list:
        """The examples of a batch, in order; worker exceptions propagate with their tracebacks."""
        batch = []
        for future in futures:
            batch.extend(future.result())
        return batch

    def __next__(self):
        if self._closed_because is not None:
            raise RuntimeError(f"{type(self).__name__}: {self._closed_because}")
        self._prefetch()
        if not self._pending:
            raise StopIteration
        state, sampler, futures = self._pending.popleft()
        batch = self._gather(futures)
        self._commit(state)
        self._sampler_now = sampler
        self._prefetch()  # the next batch loads while the caller works on this one
        return batch

    # -- shutdown ------------------------------------------------------------------------------
    def _close(self, reason: str) -> None:
        if self._closed_because is None:
            self._closed_because = reason
        for _, _, futures in self._pending:
            for future in futures:
                future.cancel()
        self._pending.clear()
        if self._finalizer is not None and self._finalizer.detach() is not None:
            type(self)._shutdown_executor(self._executor, True)
        self._executor = None

    def finalize(self):
        """Stop the workers and release them; the iterator cannot be used afterwards."""
        self._close("the iterator was finalized")
