#!/usr/bin/env python
"""Train a multi-layer perceptron on MNIST with the Trainer and the usual extensions.

    python examples/mnist/train_mnist.py --epoch 1
    python examples/mnist/train_mnist.py --resume result/snapshot_iter_600   # continue a run
    python examples/mnist/train_mnist.py --autoload                          # continue from the newest snapshot

Offline, point KUSARI_DOWNLOAD_MIRROR at a folder holding the four MNIST .gz files.
"""
import argparse

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import datasets, iterators, optimizers, serializers, training
from kusari.training import extensions


class MLP(kusari.Chain):
    """784 -> n_units -> n_units -> n_out with ReLU (input size inferred on the first call)."""

    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="kusari example: MNIST")
    parser.add_argument("--batchsize", "-b", type=int, default=100, help="examples per minibatch")
    parser.add_argument("--epoch", "-e", type=int, default=20, help="sweeps over the training set")
    parser.add_argument("--frequency", "-f", type=int, default=-1, help="snapshot every N epochs (-1: at the end)")
    parser.add_argument("--device", "-d", default="-1",
                        help="device: -1 or @numpy for the CPU, 0 or @cupy:0 for the first GPU")
    parser.add_argument("--out", "-o", default="result", help="output directory")
    parser.add_argument("--resume", "-r", default="", help="snapshot file to resume from")
    parser.add_argument("--autoload", action="store_true", help="resume from the newest snapshot in --out")
    parser.add_argument("--unit", "-u", type=int, default=1000, help="units per hidden layer")
    parser.add_argument("--noplot", dest="plot", action="store_false", help="disable PlotReport")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    device = kusari.get_device(int(args.device) if args.device.lstrip("-").isdigit() else args.device)
    print(f"Device: {device}")
    print(f"# unit: {args.unit}")
    print(f"# Minibatch-size: {args.batchsize}")
    print(f"# epoch: {args.epoch}")
    print("")

    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    device.use()
    optimizer = optimizers.Adam()
    optimizer.setup(model)

    train, test = datasets.get_mnist()
    train_iter = iterators.SerialIterator(train, args.batchsize)
    test_iter = iterators.SerialIterator(test, args.batchsize, repeat=False, shuffle=False)

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, "epoch"), out=args.out)

    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    frequency = args.epoch if args.frequency == -1 else max(1, args.frequency)
    trainer.extend(extensions.snapshot(n_retains=1, autoload=args.autoload), trigger=(frequency, "epoch"))
    trainer.extend(extensions.LogReport())
    if args.plot and extensions.PlotReport.available():
        trainer.extend(extensions.PlotReport(["main/loss", "validation/main/loss"], "epoch",
                                             filename="loss.png"))
        trainer.extend(extensions.PlotReport(["main/accuracy", "validation/main/accuracy"], "epoch",
                                             filename="accuracy.png"))
    trainer.extend(extensions.PrintReport(["epoch", "main/loss", "validation/main/loss", "main/accuracy",
                                           "validation/main/accuracy", "elapsed_time"]))
    trainer.extend(extensions.ProgressBar())

    if args.resume:
        serializers.load_npz(args.resume, trainer)
    trainer.run()


if __name__ == "__main__":
    main()
