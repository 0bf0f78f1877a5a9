#!/usr/bin/env python
"""Train a multi-layer perceptron on MNIST with a hand-written loop (no Trainer).

    python examples/mnist/train_mnist_custom_loop.py --epoch 1

Shows what the Trainer does for you: iterate, convert, forward, backward, update, and evaluate
at each epoch end under ``train=False`` without building a graph.
"""
import argparse
import os

import numpy

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import datasets, iterators, optimizers, serializers
from kusari.dataset import concat_examples


class MLP(kusari.Chain):
    """784 -> n_units -> n_units -> n_out with ReLU."""

    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="kusari example: MNIST with a custom loop")
    parser.add_argument("--batchsize", "-b", type=int, default=100)
    parser.add_argument("--epoch", "-e", type=int, default=20)
    parser.add_argument("--device", "-d", default="-1", help="-1 / @numpy (CPU) or 0 / @cupy:0 (GPU)")
    parser.add_argument("--out", "-o", default="result")
    parser.add_argument("--resume", "-r", default="", help="resume from OUT/mlp.model and OUT/mlp.state")
    parser.add_argument("--unit", "-u", type=int, default=1000)
    return parser.parse_args(argv)


def evaluate(model, test_iter, device):
    """Mean loss and accuracy over the test set."""
    test_iter.reset()
    losses, accuracies, sizes = [], [], []
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        for batch in test_iter:
            x, t = concat_examples(batch, device)
            y = model.predictor(x)
            losses.append(float(F.softmax_cross_entropy(y, t).array))
            accuracies.append(float(F.accuracy(y, t).array))
            sizes.append(len(batch))
    return numpy.average(losses, weights=sizes), numpy.average(accuracies, weights=sizes)


def main(argv=None):
    args = parse_args(argv)
    device = kusari.get_device(int(args.device) if args.device.lstrip("-").isdigit() else args.device)
    print(f"Device: {device}  # unit: {args.unit}  # Minibatch-size: {args.batchsize}  # epoch: {args.epoch}")

    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    device.use()
    optimizer = optimizers.Adam().setup(model)

    train, test = datasets.get_mnist()
    train_iter = iterators.SerialIterator(train, args.batchsize)
    test_iter = iterators.SerialIterator(test, args.batchsize, repeat=False, shuffle=False)
    if args.resume:
        serializers.load_npz(os.path.join(args.out, "mlp.model"), model)
        serializers.load_npz(os.path.join(args.out, "mlp.state"), optimizer)
        serializers.load_npz(os.path.join(args.out, "train_iter.state"), train_iter)

    train_loss, train_acc, seen = 0.0, 0.0, 0
    while train_iter.epoch < args.epoch:
        batch = train_iter.next()
        x, t = concat_examples(batch, device)
        loss = model(x, t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        train_loss += float(loss.array) * len(batch)
        train_acc += float(model.accuracy.array) * len(batch)
        seen += len(batch)
        if train_iter.is_new_epoch:
            test_loss, test_acc = evaluate(model, test_iter, device)
            print(f"epoch {train_iter.epoch}  train loss {train_loss / seen:.4f}  train accuracy {train_acc / seen:.4f}"
                  f"  test loss {test_loss:.4f}  test accuracy {test_acc:.4f}", flush=True)
            train_loss, train_acc, seen = 0.0, 0.0, 0

    os.makedirs(args.out, exist_ok=True)
    serializers.save_npz(os.path.join(args.out, "mlp.model"), model)
    serializers.save_npz(os.path.join(args.out, "mlp.state"), optimizer)
    serializers.save_npz(os.path.join(args.out, "train_iter.state"), train_iter)


if __name__ == "__main__":
    main()
