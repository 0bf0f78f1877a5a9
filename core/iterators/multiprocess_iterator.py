"""MultiprocessIterator: loads batches in worker processes, with crash detection and clean shutdown."""
import concurrent.futures
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import warnings
from concurrent.futures.process import BrokenProcessPool

from kusari.iterators._ordered_iterator import fetch_examples
from kusari.iterators._prefetch_iterator import PrefetchIterator

# the worker process's copy of the dataset, set by _worker_init
_worker_dataset = None

_JOIN_TIMEOUT_S = 5.0


def _worker_init(payload: bytes) -> None:
    global _worker_dataset
    # Ctrl-C goes to the whole process group: the main process handles it and shuts the pool down
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_dataset = pickle.loads(payload)


def _worker_fetch(indices: list) -> list:
    return fetch_examples(_worker_dataset, indices)


def _context():
    # fork would copy locks held by other threads of the parent, which can deadlock the child
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class MultiprocessIterator(PrefetchIterator):
    """Like SerialIterator, but examples are read in ``n_processes`` worker processes, ahead of time.

    Workers start on the first ``next()`` from a pickled copy of the dataset (so the dataset and
    what it calls must be picklable, defined at module level) with the ``forkserver`` start method
    (``spawn`` where unavailable), which never inherits locks from threads of the main process.
    Batches travel back pickled: there is no shared memory to size or to leak.

    - A worker's exception is re-raised by ``next()``, chained to the worker's traceback text.
    - A worker that dies (killed, out of memory) makes ``next()`` raise RuntimeError, never hang.
    - ``finalize()``, ``with``, garbage collection and interpreter exit stop the workers; workers
      ignore SIGINT, so Ctrl-C interrupts the main process only.

    Parameters
    ----------
    dataset
        indexable, picklable dataset of length ``N``.
    batch_size : int
        examples per batch.
    repeat : bool
        loop over the dataset forever; else stop after one epoch.
    shuffle : bool
        as for SerialIterator (None: shuffle unless ``order_sampler`` is given).
    n_processes : int
        worker processes; ``os.cpu_count()`` when None.
    n_prefetch : int
        batches loaded ahead.
    shared_mem : int
        accepted for compatibility with Chainer and unused (see above).
    order_sampler : callable
        as for SerialIterator; needs ``shuffle=None``.
    dataset_timeout : float
        warn (``MultiprocessIterator.TimeoutWarning``) each time a batch
        takes longer than this many seconds; None never warns.
    maxtasksperchild : int
        replace a worker after this many tasks (Python >= 3.11).

    Given the same order sampler state it yields exactly SerialIterator's batches, and its state
    (without the prefetched batches) is serialized the same way.
    """

    class TimeoutWarning(RuntimeWarning):
        """Loading a batch took longer than ``dataset_timeout`` seconds."""

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None, n_processes=None,
                 n_prefetch=1, shared_mem=None, order_sampler=None, dataset_timeout=30.0,
                 maxtasksperchild=None):
        if maxtasksperchild is not None and sys.version_info < (3, 11):
            raise ValueError("MultiprocessIterator: maxtasksperchild needs Python 3.11 or newer")
        if dataset_timeout is not None and dataset_timeout <= 0:
            raise ValueError(f"MultiprocessIterator: dataset_timeout must be positive or None, got {dataset_timeout!r}")
        n_processes = (os.cpu_count() or 1) if n_processes is None else n_processes
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler, ("n_processes", n_processes),
                         n_prefetch)
        self.n_processes = self._n_workers
        self.n_prefetch = self._n_prefetch
        self.shared_mem = shared_mem
        self.dataset_timeout = dataset_timeout
        self.maxtasksperchild = maxtasksperchild

    _task = staticmethod(_worker_fetch)

    def _create_executor(self):
        try:
            payload = pickle.dumps(self.dataset, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:
            raise TypeError(
                f"MultiprocessIterator: the dataset ({type(self.dataset).__name__}) cannot be pickled "
                f"for the worker processes ({type(e).__name__}: {e}); define its classes and "
                "functions at module level, or use MultithreadIterator") from e
        extra = {} if self.maxtasksperchild is None else {"max_tasks_per_child": self.maxtasksperchild}
        return concurrent.futures.ProcessPoolExecutor(
            self._n_workers, mp_context=_context(), initializer=_worker_init, initargs=(payload,), **extra)

    @staticmethod
    def _shutdown_executor(executor, wait):
        if not wait:
            executor.shutdown(wait=False, cancel_futures=True)
            return
        # ProcessPoolExecutor cannot terminate its workers (before Python 3.14): take their handles
        # (shutdown() forgets them) and stop any worker still stuck inside the dataset after a grace
        # period, which lets the waiting shutdown finish
        processes = list((getattr(executor, "_processes", None) or {}).values())
        waiter = threading.Thread(target=executor.shutdown, kwargs={"wait": True, "cancel_futures": True})
        waiter.start()
        waiter.join(_JOIN_TIMEOUT_S)
        if waiter.is_alive():
            for process in processes:
                process.terminate()
            waiter.join()

    def _gather(self, futures):
        if self.dataset_timeout is not None:
            while concurrent.futures.wait(futures, timeout=self.dataset_timeout).not_done:
                warnings.warn(
                    f"MultiprocessIterator: a batch has been loading for more than "
                    f"{self.dataset_timeout} s; a worker may be stuck in the dataset", self.TimeoutWarning)
        return super()._gather(futures)

    def __next__(self):
        try:
            return super().__next__()
        except BrokenProcessPool as e:
            reason = ("a worker process terminated abruptly (killed by a signal, out of memory, or it "
                      "failed to start: see its output above); the iterator cannot continue")
            self._close(reason)
            raise RuntimeError(f"MultiprocessIterator: {reason}") from e
