"""create_multi_node_checkpointer: every rank saves its own state; resume from the newest iteration
that every rank has."""
import os
import re
import time

from kusari import serializers
from kusari.training import extension


class _MultiNodeCheckpointer(extension.Extension):
    trigger = 1, "epoch"
    priority = -100   # after the other extensions, like snapshots

    def __init__(self, name, comm, cp_interval, gc_interval, path):
        if cp_interval < 1 or gc_interval < 1:
            raise ValueError(f"create_multi_node_checkpointer: cp_interval and gc_interval must be >= 1, got "
                             f"{cp_interval} and {gc_interval}")
        self.name, self.comm, self.path = name, comm, path
        self.cp_interval, self.gc_interval = cp_interval, gc_interval
        self._calls = 0
        self._seconds = []
        self._pattern = re.compile(rf"^{re.escape(name)}\.iter(\d+)\.rank(\d+)-of(\d+)\.npz$")

    def _dir(self, trainer):
        return self.path if self.path is not None else trainer.out

    def _filename(self, iteration, rank=None, size=None):
        rank = self.comm.rank if rank is None else rank
        return f"{self.name}.iter{iteration}.rank{rank}-of{size or self.comm.size}.npz"

    def _found(self, directory):
        """{(rank, size): [iterations]} of the checkpoint files in ``directory``."""
        found = {}
        if os.path.isdir(directory):
            for f in os.listdir(directory):
                m = self._pattern.match(f)
                if m:
                    found.setdefault((int(m[2]), int(m[3])), []).append(int(m[1]))
        return found

    def __call__(self, trainer):
        start = time.perf_counter()
        directory = self._dir(trainer)
        os.makedirs(directory, exist_ok=True)
        serializers.save_npz(os.path.join(directory, self._filename(trainer.updater.iteration)), trainer)
        self._seconds.append(time.perf_counter() - start)
        self._calls += 1
        if self._calls % self.gc_interval == 0:
            mine = sorted(self._found(directory).get((self.comm.rank, self.comm.size), []))
            for iteration in mine[:-self.cp_interval]:
                os.remove(os.path.join(directory, self._filename(iteration)))

    def get_stats(self) -> dict:
        """Checkpoints written by this rank and their mean and longest time (seconds)."""
        n = len(self._seconds)
        return {"count": n, "mean_s": sum(self._seconds) / n if n else None,
                "max_s": max(self._seconds) if n else None}

    def maybe_load(self, trainer, optimizer=None, path=None):
        """Load into ``trainer`` the newest iteration every rank has a checkpoint of; returns that
        iteration, or None when there is none. ``optimizer`` is accepted for ChainerMN compatibility
        (its state is part of the trainer's). Checkpoints of a job with another number of ranks are
        refused (each rank's file holds that rank's state): use ``multi_node_snapshot`` to change size.
        """
        directory = path if path is not None else self._dir(trainer)
        found = self._found(directory)
        mine = set(found.get((self.comm.rank, self.comm.size), []))
        others = sorted({size for (_, size) in found if size != self.comm.size})
        common = self.comm.allgather_obj(sorted(mine))
        iterations = set(common[0]).intersection(*map(set, common[1:]))
        if not iterations:
            if others:
                raise ValueError(
                    f"create_multi_node_checkpointer: {directory} holds checkpoints {self.name!r} of jobs of "
                    f"{others} ranks but none of this job's {self.comm.size}; per-rank checkpoints resume only "
                    "at their own size (multi_node_snapshot resumes at any size)")
            return None
        iteration = max(iterations)
        serializers.load_npz(os.path.join(directory, self._filename(iteration)), trainer)
        return iteration


def create_multi_node_checkpointer(name, comm, cp_interval: int = 5, gc_interval: int = 5, path=None):
    """An extension with which every rank saves its whole trainer state (``trainer.out`` or ``path``,
    files ``<name>.iter<i>.rank<r>-of<size>.npz``) each time it is triggered (every epoch by
    default), keeping the newest ``cp_interval`` files, cleaned every ``gc_interval`` saves.
    Call its ``maybe_load(trainer)`` before ``trainer.run()`` to resume."""
    return _MultiNodeCheckpointer(name, comm, cp_interval, gc_interval, path)
