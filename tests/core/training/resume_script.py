"""Train a tiny model with snapshots (used by test_exact_resume.py as a subprocess; not a test module).

Usage: python resume_script.py OUT [--slow]

Trains 40 iterations of an MLP with dropout (NumPy's global RNG), a shuffling iterator with its own
RandomState, MomentumSGD with an ExponentialShift of lr, and a LogReport; snapshots every 7
iterations with autoload, so a rerun after a kill resumes. Writes OUT/final.npz at the end.
"""
import sys
import time

import numpy

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import datasets, iterators, optimizers, serializers, training
from kusari.training import extensions


class MLP(kusari.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 8)
            self.l2 = L.Linear(8, 3)

    def forward(self, x):
        return self.l2(F.dropout(F.relu(self.l1(x)), 0.3))


def main():
    out = sys.argv[1]
    slow = "--slow" in sys.argv
    numpy.random.seed(0)
    rng = numpy.random.RandomState(1)
    x = rng.randn(23, 4).astype(numpy.float32)
    t = rng.randint(0, 3, 23).astype(numpy.int32)
    model = L.Classifier(MLP())
    optimizer = optimizers.MomentumSGD(lr=0.1).setup(model)
    sampler = iterators.ShuffleOrderSampler(numpy.random.RandomState(2))
    it = iterators.SerialIterator(datasets.TupleDataset(x, t), 5, repeat=True, shuffle=None, order_sampler=sampler)
    updater = training.StandardUpdater(it, optimizer)
    trainer = training.Trainer(updater, (40, "iteration"), out=out)
    trainer.extend(extensions.ExponentialShift("lr", 0.97), trigger=(1, "iteration"))
    trainer.extend(extensions.LogReport(trigger=(3, "iteration")))
    trainer.extend(extensions.snapshot(autoload=True), trigger=(7, "iteration"))
    if slow:
        trainer.extend(lambda trainer: time.sleep(0.1), name="sleep")
    trainer.run()
    serializers.save_npz(f"{out}/final.npz", optimizer)  # includes the momentum state
    serializers.save_npz(f"{out}/final_model.npz", model)


if __name__ == "__main__":
    main()
