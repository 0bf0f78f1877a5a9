"""Quickstart: train a small MLP on a toy 3-class problem with a manual loop (Chainer v7 style).

Run: python examples/quickstart.py
"""
import numpy

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import optimizers


class MLP(kusari.Chain):
    def __init__(self, n_hidden, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_hidden)
            self.l2 = L.Linear(n_hidden, n_out)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def main():
    rng = numpy.random.RandomState(0)
    x = rng.randn(600, 2).astype(numpy.float32)
    t = (numpy.arctan2(x[:, 1], x[:, 0]) // (2 * numpy.pi / 3) + 1).astype(numpy.int32) % 3
    model = MLP(32, 3)
    optimizer = optimizers.Adam(alpha=0.01).setup(model)
    for epoch in range(1, 101):
        loss = F.softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        if epoch % 20 == 0:
            with kusari.using_config("train", False), kusari.no_backprop_mode():
                acc = F.accuracy(model(x), t)
            print(f"epoch {epoch:3d}  loss {float(loss.array):.4f}  accuracy {float(acc.array):.3f}")


if __name__ == "__main__":
    main()
