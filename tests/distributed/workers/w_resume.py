"""Worker: data-parallel training with multi-node snapshots, stopped and resumed at other world sizes
(run by test_resume). argv: out directory, stop iteration, mode ('train' or 'incompatible')."""
import os
import sys

import kusari
import kusari.distributed as chainermn
import kusari.links as L
from kusari import optimizers, serializers, training
from kusari.dataset import concat_examples
from kusari.training import extensions

from _common import MLP, toy_dataset

GLOBAL_BATCH = 8


class Wide(MLP):
    """A model that does not fit the snapshot (17 hidden units instead of 16)."""

    def __init__(self):
        kusari.Chain.__init__(self)
        with self.init_scope():
            self.l1 = L.Linear(6, 17)
            self.l2 = L.Linear(17, 3)


def main(out, stop, mode):
    comm = chainermn.create_communicator("flat")
    r, n = comm.rank, comm.size
    base = toy_dataset(n=40)
    dataset = [(i,) + base[i] for i in range(len(base))]   # (id, x, t)
    model = L.Classifier(Wide() if mode == "incompatible" else MLP())
    optimizer = chainermn.create_multi_node_optimizer(optimizers.Adam(alpha=0.01), comm).setup(model)
    iterator = chainermn.iterators.GlobalOrderIterator(dataset, GLOBAL_BATCH, comm, seed=5)
    log = open(os.path.join(out, f"ids.size{n}.rank{r}.log"), "a")

    def converter(batch, device):
        ids = [example[0] for example in batch]
        log.write(f"{updater.iteration + 1} {' '.join(map(str, ids))}\n")
        return concat_examples([example[1:] for example in batch], device)

    updater = training.StandardUpdater(iterator, optimizer, converter=converter)
    trainer = training.Trainer(updater, (stop, "iteration"), out=out)
    snapshot = extensions.snapshot(autoload=True, n_retains=2)
    trainer.extend(chainermn.extensions.multi_node_snapshot(comm, snapshot), trigger=(4, "iteration"))
    if mode == "incompatible":
        try:
            trainer.run()
        except ValueError as e:
            print(f"rank {r} refused: {e}", flush=True)
            print("w_resume.py ok", flush=True)
        return
    trainer.run()
    log.close()
    assert updater.iteration == stop and optimizer.t == stop, (updater.iteration, optimizer.t)
    if r == 0:
        serializers.save_npz(os.path.join(out, "final.npz"), model)
    print("w_resume.py ok", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
