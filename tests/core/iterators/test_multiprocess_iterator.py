import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time

import numpy
import pytest

from kusari.datasets import TransformDataset, TupleDataset
from kusari.iterators import MultiprocessIterator


def _in_thread(func, timeout):
    """Run ``func`` in a thread: (finished within timeout, its exception or None)."""
    outcome = []

    def run():
        try:
            func()
            outcome.append(None)
        except BaseException as e:  # noqa: B902 (handed to the test)
            outcome.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    return (not thread.is_alive()), (outcome[0] if outcome else None)


def test_killed_worker_raises_instead_of_hanging():
    it = MultiprocessIterator(TupleDataset(numpy.arange(8)), 2, n_processes=2)
    try:
        next(it)
        workers = multiprocessing.active_children()
        assert workers
        os.kill(workers[0].pid, signal.SIGKILL)

        def drain():
            for _ in range(20):  # batches loaded before the kill may still arrive
                next(it)
                time.sleep(0.05)

        finished, error = _in_thread(drain, timeout=60)
        assert finished, "next() hung after a worker was killed"
        assert isinstance(error, RuntimeError)
        assert "a worker process terminated abruptly" in str(error)
        with pytest.raises(RuntimeError, match="terminated abruptly"):
            next(it)
        assert multiprocessing.active_children() == []
    finally:
        it.finalize()


CTRL_C_SCRIPT = """
import multiprocessing
import numpy
from kusari.iterators import MultiprocessIterator

if __name__ == "__main__":
    it = MultiprocessIterator(numpy.arange(100), 10, n_processes=2)
    next(it)
    next(it)
    print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
    while True:
        next(it)
"""


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_ctrl_c_stops_the_program_and_its_workers(tmp_path, wait_until):
    script = tmp_path / "train.py"
    script.write_text(CTRL_C_SCRIPT)
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        workers = [int(pid) for pid in child.stdout.readline().split()]
        assert workers
        child.send_signal(signal.SIGINT)
        child.wait(timeout=60)
    finally:
        child.kill()
        child.wait()
        child.stdout.close()
        stderr = child.stderr.read()
        child.stderr.close()
    # one traceback, the main process's: workers ignore SIGINT and exit quietly with it
    assert stderr.count("Traceback") == 1 and stderr.rstrip().endswith("KeyboardInterrupt")
    assert wait_until(lambda: not [pid for pid in workers if _alive(pid)])


def test_unpicklable_dataset_is_reported_before_starting_workers():
    it = MultiprocessIterator(TransformDataset([1, 2], lambda x: x), 1, n_processes=1)
    with pytest.raises(TypeError, match=r"the dataset \(TransformDataset\) cannot be pickled"):
        next(it)
    assert multiprocessing.active_children() == []
    it.finalize()


def test_slow_dataset_warns_after_dataset_timeout():
    # time.sleep as the transform: each example takes 0.4 s to load
    it = MultiprocessIterator(TransformDataset([0.4, 0.4], time.sleep), 2, n_processes=1,
                              dataset_timeout=0.1, shuffle=False)
    try:
        with pytest.warns(MultiprocessIterator.TimeoutWarning, match="loading for more than 0.1 s"):
            assert next(it) == [None, None]
    finally:
        it.finalize()


@pytest.mark.parametrize("kwargs, message", [
    ({"n_processes": 0}, "MultiprocessIterator: n_processes must be a positive int, got 0"),
    ({"n_prefetch": 0}, "n_prefetch must be a positive int, got 0"),
    ({"dataset_timeout": 0}, "dataset_timeout must be positive or None, got 0"),
])
def test_argument_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MultiprocessIterator([1, 2], 1, **kwargs)


def test_defaults():
    it = MultiprocessIterator([1, 2], 1)
    assert it.n_processes == (os.cpu_count() or 1) and it.n_prefetch == 1 and it.dataset_timeout == 30.0
    it.finalize()


@pytest.mark.slow
def test_maxtasksperchild_replaces_workers():
    it = MultiprocessIterator(TupleDataset(numpy.arange(6)), 3, n_processes=1, maxtasksperchild=1,
                              shuffle=False)
    try:
        assert [[int(x[0]) for x in next(it)] for _ in range(4)] == [[0, 1, 2], [3, 4, 5]] * 2
    finally:
        it.finalize()
