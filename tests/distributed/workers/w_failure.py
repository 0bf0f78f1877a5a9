"""Worker: one rank fails mid-training in the way argv[1] names; the job must end, not hang
(run by test_never_hangs). Modes: sigkill, extension, thread, iterator_worker, timeout."""
import os
import signal
import sys
import tempfile
import threading
import time

import kusari.distributed as chainermn
import kusari.links as L
from kusari import optimizers, training
from kusari.iterators import MultiprocessIterator, SerialIterator

from _common import MLP, toy_dataset

FAIL_AT = 3


class Fragile(list):
    """A dataset whose example 5 cannot be read when ``broken`` (it is read in a worker process)."""

    def __init__(self, examples, broken):
        super().__init__(examples)
        self.broken = broken

    def __getitem__(self, i):
        if self.broken and i == 5:
            raise OSError("example 5 is unreadable on rank 1")
        return super().__getitem__(i)


class Saboteur:
    """An extension: on rank 1, SIGKILL itself (sigkill) or raise (extension) at iteration FAIL_AT."""

    trigger = 1, "iteration"

    def __init__(self, mode, rank):
        self.mode, self.rank = mode, rank

    def __call__(self, trainer):
        if self.rank == 1 and trainer.updater.iteration == FAIL_AT:
            if self.mode == "sigkill":
                os.kill(os.getpid(), signal.SIGKILL)
            if self.mode == "extension":
                raise RuntimeError("an extension of rank 1 failed")


def main(mode):
    comm = chainermn.create_communicator("naive", timeout=1.5 if mode == "timeout" else None)
    r = comm.rank
    if mode == "timeout":
        if r == 1:
            time.sleep(4)
        try:
            comm.barrier()
        except chainermn.CollectiveTimeoutError as e:
            print(f"rank {r} timeout: {e}", flush=True)
        print("w_failure.py ok", flush=True)
        return
    if mode == "thread":
        if r == 1:
            def fail():
                raise RuntimeError("a helper thread of rank 1 failed")
            threading.Thread(target=fail, name="helper").start()
        comm.barrier()   # rank 0 waits here for a rank 1 that the thread's failure aborts
        time.sleep(120)
        return
    model = L.Classifier(MLP())
    optimizer = chainermn.create_multi_node_optimizer(optimizers.SGD(lr=0.1), comm).setup(model)
    data = toy_dataset()
    if mode == "iterator_worker":
        iterator = MultiprocessIterator(Fragile(data[:], broken=r == 1), 4, n_processes=1, shuffle=False)
    else:
        iterator = SerialIterator(data, 4)
    updater = training.StandardUpdater(iterator, optimizer)
    with tempfile.TemporaryDirectory() as out:
        trainer = training.Trainer(updater, (10 ** 6, "iteration"), out=out)
        trainer.extend(Saboteur(mode, r), name="saboteur")
        trainer.run()


if __name__ == "__main__":   # the iterator's worker processes import this file too
    main(sys.argv[1])
