"""multi_node_snapshot: one snapshot per set of replica ranks, loadable by a job of any size."""
import os

from kusari import serializers
from kusari.training import extension


def _parse_replica_sets(replica_sets, size):
    if replica_sets is None:
        return [list(range(size))]
    sets = [sorted({int(r) for r in ([s] if isinstance(s, int) else s)}) for s in replica_sets]
    seen = sorted(r for s in sets for r in s)
    covered = set(seen)
    if len(seen) != len(covered) or covered - set(range(size)):
        raise ValueError(f"multi_node_snapshot: replica_sets {replica_sets!r} must be disjoint sets of the "
                         f"ranks 0..{size - 1}")
    return sets + [[r] for r in range(size) if r not in covered]   # ranks not named are alone


class _MultiNodeSnapshot(extension.Extension):
    """The extension :func:`multi_node_snapshot` returns."""

    def __init__(self, comm, snapshot, replica_sets):
        self.comm = comm
        self.snapshot = snapshot
        self.trigger = snapshot.trigger
        self.priority = snapshot.priority
        self.replica_sets = _parse_replica_sets(replica_sets, comm.size)
        self.master = next(min(s) for s in self.replica_sets if comm.rank in s)
        if len(self.replica_sets) > 1:
            # several sets hold different states: each file names its set's master rank
            template = snapshot.filename
            snapshot.filename = f"{template}_rank{self.master}"

    @property
    def autoload(self) -> bool:
        """The snapshot's: the trainer initializes loaders before the other extensions."""
        return self.snapshot.autoload

    @property
    def is_master(self) -> bool:
        return self.comm.rank == self.master

    def initialize(self, trainer):
        """With the snapshot's ``autoload``: each set's master picks the newest readable file (and
        loads it); the other ranks of the set load the same file. Returns the path, or None."""
        if not self.snapshot.autoload:
            return None
        chosen, failure = None, None
        if self.is_master:
            try:
                chosen = self.snapshot.initialize(trainer)
            except Exception as e:   # shared below, so that the whole set raises, not only this rank
                failure = e
        outcomes = self.comm.allgather_obj((chosen, None if failure is None else f"{type(failure).__name__}: {failure}"))
        path, error = outcomes[self.master]
        if failure is not None:
            raise failure
        if error is not None:
            raise ValueError(f"multi_node_snapshot: rank {self.comm.rank}: rank {self.master} could not load "
                             f"the newest snapshot in {trainer.out}: {error}")
        if path is not None and not self.is_master:
            if not os.path.isfile(path):
                raise FileNotFoundError(
                    f"multi_node_snapshot: rank {self.comm.rank} cannot read {path}, the snapshot rank "
                    f"{self.master} loaded; trainer.out must be on a file system every rank sees")
            serializers.load_npz(path, trainer)
        return path

    def on_error(self, trainer, exc, tb):
        if self.is_master:
            self.snapshot.on_error(trainer, exc, tb)

    def __call__(self, trainer):
        if self.is_master:
            self.snapshot(trainer)

    def finalize(self):
        self.snapshot.finalize()


def multi_node_snapshot(comm, snapshot, replica_sets=None):
    """Make ``snapshot`` (a :func:`kusari.training.extensions.snapshot`) multi-node.

    Parameters
    ----------
    comm : CommunicatorBase
    snapshot
        the snapshot extension; its trigger, filename and ``autoload`` are used.
    replica_sets : list of lists of ranks, optional
        ranks whose states are identical (data parallelism: all of them, the default). Only the
        lowest rank of each set writes. With one set the file is the snapshot's own filename, so a
        job of another size resumes from it: with :class:`kusari.distributed.iterators.GlobalOrderIterator`
        it continues the same global batches. With several sets each file ends in ``_rank<master>``.

    Every rank must see ``trainer.out`` (a shared file system).
    """
    return _MultiNodeSnapshot(comm, snapshot, replica_sets)
