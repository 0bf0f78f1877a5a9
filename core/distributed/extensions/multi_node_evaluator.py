"""Evaluation over the ranks' shards of a test set: create_multi_node_evaluator and GenericMultiNodeEvaluator."""
import copy
import types

import numpy

from kusari import backend
from kusari import configuration
from kusari import reporter as reporter_module
from kusari.dataset import convert
from kusari.training import extension


def _call(func, in_arrays):
    if isinstance(in_arrays, tuple):
        return func(*in_arrays)
    if isinstance(in_arrays, dict):
        return func(**in_arrays)
    return func(in_arrays)


def _fresh(iterator):
    if hasattr(iterator, "reset"):
        iterator.reset()
        return iterator
    return copy.copy(iterator)


def _scalar(value) -> float:
    value = getattr(value, "array", value)
    return float(numpy.asarray(backend.to_cpu(value)))


def _distributed_evaluate(self):
    """Evaluator.evaluate over this rank's shard, then the mean of every observation over all the
    ranks' batches (equal to one process evaluating every batch)."""
    iterator = self.get_iterator("main")
    eval_func = self.eval_func or self.get_target("main")
    if self.eval_hook is not None:
        self.eval_hook(self)
    sums = {}
    for batch in _fresh(iterator):
        observation = {}
        with reporter_module.report_scope(observation):
            in_arrays = self.converter(batch, self.device)
            with configuration.no_backprop_mode():
                _call(eval_func, in_arrays)
        for key, value in observation.items():
            total, count = sums.get(key, (0.0, 0))
            sums[key] = (total + _scalar(value), count + 1)
    combined = {}
    for rank_sums in self._mn_communicator.allgather_obj(sums):
        for key, (total, count) in rank_sums.items():
            t, c = combined.get(key, (0.0, 0))
            combined[key] = (t + total, c + count)
    return {key: total / count for key, (total, count) in sorted(combined.items())}


def create_multi_node_evaluator(actual_evaluator, communicator):
    """Make ``actual_evaluator`` (a :class:`kusari.training.extensions.Evaluator` over this rank's shard
    of the test set) report the mean over all the ranks' batches, the same on every rank.

    Each observation's per-batch values are summed and counted on every rank, and the sums combined:
    with equal batch sizes this equals one process evaluating the whole test set.
    """
    actual_evaluator._mn_communicator = communicator
    actual_evaluator.evaluate = types.MethodType(_distributed_evaluate, actual_evaluator)
    return actual_evaluator


class GenericMultiNodeEvaluator(extension.Extension):
    """Evaluation whose results do not average: each rank runs :meth:`calc_local` on its batches, the
    root gets every rank's results and runs :meth:`aggregate` on them (override both).

    Parameters
    ----------
    comm : CommunicatorBase
    iterator
        this rank's non-repeating test iterator.
    target : callable
        the model (``calc_local`` calls it by default).
    device, converter
        as in :class:`kusari.training.extensions.Evaluator`.
    root : int
        the rank that aggregates.
    progress_hook : callable, optional
        ``progress_hook(batch)`` after each local batch.

    Calling it returns ``aggregate(results)`` on the root (``results``: every rank's ``calc_local``
    values, rank by rank) and None on the other ranks.
    """

    trigger = 1, "epoch"
    default_name = "validation"
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(self, comm, iterator, target, device=None, converter=convert.concat_examples, root=0,
                 progress_hook=None):
        if not 0 <= root < comm.size:
            raise ValueError(f"GenericMultiNodeEvaluator: root={root} is not a rank of a communicator of "
                             f"size {comm.size}")
        self.comm = comm
        self.iterator = iterator
        self._targets = {"main": target}
        self.converter = converter
        self.device = None if device is None else backend.get_device(device)
        self.root = root
        self._progress_hook = progress_hook

    def calc_local(self, *args, **kwargs):
        """One batch's result on this rank (any picklable value); the target's output by default."""
        return self._targets["main"](*args, **kwargs)

    def aggregate(self, results: list):
        """Combine every rank's ``calc_local`` results on the root; returns them unchanged by default."""
        return results

    def __call__(self, trainer=None):
        local = []
        for batch in _fresh(self.iterator):
            with configuration.no_backprop_mode():
                local.append(_call(self.calc_local, self.converter(batch, self.device)))
            if self._progress_hook is not None:
                self._progress_hook(batch)
        gathered = self.comm.gather_obj(local, root=self.root)
        if self.comm.rank != self.root:
            return None
        return self.aggregate([result for rank_results in gathered for result in rank_results])
