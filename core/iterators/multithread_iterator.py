"""MultithreadIterator: loads each batch with a pool of worker threads while the caller works."""
import concurrent.futures
import functools

from kusari.iterators._ordered_iterator import fetch_examples
from kusari.iterators._prefetch_iterator import PrefetchIterator


class MultithreadIterator(PrefetchIterator):
    """Like SerialIterator, but ``dataset[i]`` runs in ``n_threads`` worker threads, one batch ahead.

    Threads help when reading an example releases the GIL (file or network I/O, image decoding in
    C). A worker's exception is re-raised by ``next()`` with the worker's traceback. Call
    ``finalize()`` (or use ``with``) to stop the threads; garbage collection also stops them.

    Parameters
    ----------
    dataset
        indexable dataset of length ``N``.
    batch_size : int
        examples per batch.
    repeat : bool
        loop over the dataset forever; else stop after one epoch.
    shuffle : bool
        as for SerialIterator (None: shuffle unless ``order_sampler`` is given).
    n_threads : int
        worker threads.
    order_sampler : callable
        as for SerialIterator; needs ``shuffle=None``.

    Given the same order sampler state it yields exactly SerialIterator's batches, and its state
    (without the prefetched batch) is serialized the same way.
    """

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None, n_threads=1, order_sampler=None):
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler, ("n_threads", n_threads), 1)
        self.n_threads = self._n_workers
        self._task = functools.partial(fetch_examples, dataset)

    def _create_executor(self):
        return concurrent.futures.ThreadPoolExecutor(self._n_workers, thread_name_prefix="kusari-iterator")

    @staticmethod
    def _shutdown_executor(executor, wait):
        executor.shutdown(wait=wait, cancel_futures=True)
