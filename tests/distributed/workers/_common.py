"""Shared by the workers: a small seeded classification problem and model."""
import numpy as np

import kusari
import kusari.functions as F
import kusari.links as L
from kusari.datasets import TupleDataset


def toy_dataset(n=64, seed=0):
    """``n`` examples: 6 float32 features, a label in 0..2."""
    rng = np.random.RandomState(seed)
    x = rng.randn(n, 6).astype(np.float32)
    t = (x[:, 0] + x[:, 1] > 0).astype(np.int32) + (x[:, 2] > 1).astype(np.int32)
    return TupleDataset(x, t)


class MLP(kusari.Chain):
    def __init__(self, seed=0):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(6, 16)
            self.l2 = L.Linear(16, 3)
        rng = np.random.RandomState(seed)
        for p in self.params():
            p.array[...] = rng.randn(*p.shape) * 0.5

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def params_of(model):
    return {name: p.array.copy() for name, p in sorted(model.namedparams())}
