import queue
import threading

import pytest

from kusari.iterators import SerialIterator
from kusari.vision.utils.iterator import apply_to_iterator


def _predict(imgs):
    return [2 * i for i in imgs], [-i for i in imgs]


def test_inputs_outputs_and_rest():
    dataset = [(i, f"box{i}", f"label{i}") for i in range(7)]
    it = SerialIterator(dataset, 3, repeat=False, shuffle=False)
    seen = []
    in_values, out_values, rest_values = apply_to_iterator(
        _predict, it, hook=lambda i, o, r: seen.append((i, o, r)))
    assert len(in_values) == 1 and len(out_values) == 2 and len(rest_values) == 2
    assert list(in_values[0]) == list(range(7))
    doubled, negated = out_values
    assert list(doubled) == [2 * i for i in range(7)]
    assert list(negated) == [-i for i in range(7)]
    assert list(rest_values[1]) == [f"label{i}" for i in range(7)]
    assert list(rest_values[0]) == [f"box{i}" for i in range(7)]
    # the hook sees each batch as tuples of lists
    assert seen[0] == (([0, 1, 2],), ([0, 2, 4], [0, -1, -2]), (["box0", "box1", "box2"], ["label0", "label1", "label2"]))
    assert [len(s[0][0]) for s in seen] == [3, 3, 1]


def test_plain_samples_and_several_inputs():
    in_values, out_values, rest_values = apply_to_iterator(lambda xs: [x + 1 for x in xs], iter([[1, 2], [3]]))
    assert rest_values == ()
    assert list(out_values[0]) == [2, 3, 4]
    in_values, out_values, rest_values = apply_to_iterator(
        lambda a, b: [x * y for x, y in zip(a, b)], iter([[(1, 2, "r"), (3, 4, "s")]]), n_input=2)
    assert [list(v) for v in in_values] == [[1, 3], [2, 4]]
    assert list(out_values[0]) == [2, 12]
    assert list(rest_values[0]) == ["r", "s"]


def test_an_empty_iterator_is_reported():
    with pytest.raises(ValueError, match="apply_to_iterator: the iterator gave no batch"):
        apply_to_iterator(_predict, iter([]))


class _Communicator:
    """Two ranks in two threads: scatter and gather_obj as ChainerMN's, through queues."""

    def __init__(self, rank, channels):
        self.rank, self.size = rank, 2
        self._channels = channels
        self.mpi_comm = self

    def scatter(self, parts):
        if self.rank == 0:
            self._channels["to1"].put(parts[1])
            return parts[0]
        return self._channels["to1"].get()

    def gather_obj(self, obj):
        if self.rank == 1:
            self._channels["to0"].put(obj)
            return None
        return [obj, self._channels["to0"].get()]


def test_the_root_splits_batches_among_workers_and_gathers_in_order():
    channels = {"to0": queue.Queue(), "to1": queue.Queue()}
    calls = {0: [], 1: []}

    def predict(rank):
        def f(imgs):
            calls[rank].append(list(imgs))
            return [10 * i for i in imgs]
        return f

    worker = threading.Thread(target=lambda: calls.setdefault(
        "worker_result", apply_to_iterator(predict(1), None, comm=_Communicator(1, channels))))
    worker.start()
    dataset = [(i, -i) for i in range(5)]
    with pytest.warns(RuntimeWarning, match=r"the batch size \(3\) is not a multiple of the number of workers \(2\)"):
        in_values, out_values, rest_values = apply_to_iterator(
            predict(0), SerialIterator(dataset, 3, repeat=False, shuffle=False), comm=_Communicator(0, channels))
        outputs = list(out_values[0])
    worker.join()
    assert outputs == [0, 10, 20, 30, 40]
    assert list(rest_values[0]) == [0, -1, -2, -3, -4]
    assert calls[0] == [[0, 1], [3]] and calls[1] == [[2], [4]]
    assert calls["worker_result"] is None
