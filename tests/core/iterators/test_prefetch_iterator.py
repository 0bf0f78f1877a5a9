"""Behaviour shared by the prefetching iterators (kusari/iterators/_prefetch_iterator.py), checked on both."""
import gc
import multiprocessing
import os
import threading
import traceback

import numpy
import pytest

from kusari.datasets import TransformDataset, TupleDataset
from kusari.iterators import MultiprocessIterator, MultithreadIterator, SerialIterator, ShuffleOrderSampler

KINDS = {
    "threads": lambda *args, workers=2, **kw: MultithreadIterator(*args, n_threads=workers, **kw),
    "processes": lambda *args, workers=2, **kw: MultiprocessIterator(*args, n_processes=workers, n_prefetch=3,
                                                                     **kw),
}


@pytest.fixture(scope="module")
def started_multiprocessing():
    """Run one process pool first: the forkserver and resource tracker it starts stay up for the
    session (once per process, not per iterator), so resource counts below compare like with like."""
    it = MultiprocessIterator(_dataset(2), 1, n_processes=1)
    next(it)
    it.finalize()


@pytest.fixture(params=sorted(KINDS))
def kind(request):
    if request.param == "processes":
        request.getfixturevalue("started_multiprocessing")
    return request.param


@pytest.fixture
def make(kind):
    """``make(dataset, batch_size, **kw)`` builds the iterator under test; all are finalized after."""
    made = []

    def build(*args, **kw):
        it = KINDS[kind](*args, **kw)
        made.append(it)
        return it
    yield build
    for it in made:
        it.finalize()


def _sampler(seed):
    return ShuffleOrderSampler(numpy.random.RandomState(seed))


def _dataset(n):
    return TupleDataset(numpy.arange(n), numpy.arange(n) * 10)


def _state(it):
    return it.epoch, it.is_new_epoch, it.epoch_detail, it.previous_epoch_detail, it.current_position


def _resources():
    fds = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0
    return threading.active_count(), len(multiprocessing.active_children()), fds


def test_same_batches_as_serial_iterator(make):
    reference = SerialIterator(_dataset(10), 3, order_sampler=_sampler(7))
    it = make(_dataset(10), 3, order_sampler=_sampler(7))
    for _ in range(15):
        assert next(it) == next(reference)
        assert _state(it) == _state(reference)


def test_resume_mid_epoch_gives_identical_batches(make, snapshot):
    save, load = snapshot
    dataset = _dataset(10)
    reference = SerialIterator(dataset, 4, order_sampler=_sampler(3))
    it = make(dataset, 4, order_sampler=_sampler(3))
    for _ in range(2):
        assert next(it) == next(reference)
    # the batch prefetched now straddles into epoch 1 and already drew its order; the snapshot
    # must hold the state the consumer has seen
    path = save(it)
    serial_path = save(reference)
    expected = [next(reference) for _ in range(8)]
    assert [next(it) for _ in range(8)] == expected
    load(it, path)  # rewinds an iterator that moved on, dropping what it prefetched
    assert it.epoch_detail == pytest.approx(0.8) and it.previous_epoch_detail == pytest.approx(0.4)
    assert [next(it) for _ in range(8)] == expected
    load(it, serial_path)  # a SerialIterator's snapshot resumes the same way
    assert [next(it) for _ in range(8)] == expected


def test_worker_exception_propagates_with_its_traceback(make):
    it = make(TransformDataset(["1", "2", "x", "4"], int), 4, shuffle=False, workers=1)
    with pytest.raises(ValueError, match="invalid literal for int") as info:
        next(it)
    text = "".join(traceback.format_exception(info.value))
    assert "transform_dataset.py" in text and "in get_example" in text


def test_finalize_and_with_release_the_workers(make):
    before = _resources()
    with make(_dataset(6), 2, workers=1) as it:
        next(it)
        assert _resources()[:2] != before[:2]
    assert _resources() == before
    with pytest.raises(RuntimeError, match="the iterator was finalized"):
        next(it)


def test_garbage_collection_releases_the_workers(kind, wait_until):
    before = _resources()
    it = KINDS[kind](_dataset(6), 2, workers=1)
    next(it)
    assert _resources()[:2] != before[:2]
    del it
    gc.collect()
    assert wait_until(lambda: _resources() == before)


def test_thousands_of_short_epochs_leak_nothing(make):
    before = _resources()
    # evaluation-style use: one shuffled pass, reset, again (each reset draws a new order)
    it = make(_dataset(4), 4, repeat=False, workers=1)
    for i in range(2000):
        it.reset()
        passes = list(it)
        assert len(passes) == 1 and sorted(x for x, _ in passes[0]) == [0, 1, 2, 3]
        assert it.epoch == 1 and it.is_new_epoch
        if i == 20:
            warm = _resources()
    assert _resources() == warm
    it.finalize()
    assert _resources() == before
