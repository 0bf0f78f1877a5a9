#!/usr/bin/env python
"""Model-parallel MNIST with kusari.distributed (ChainerMN's train_mnist_model_parallel.py, same
arguments): the first layer runs on rank 0, the other two on rank 1, and the output comes back to
rank 0, which computes the loss. Exactly two ranks:

    mpiexec -n 2 python train_mnist_model_parallel.py --epoch 2
"""
import argparse

import kusari
import kusari.distributed as chainermn
import kusari.functions as F
import kusari.links as L
from kusari import training
from kusari.training import extensions


class MLP0SubA(kusari.Chain):
    def __init__(self, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(784, n_out)

    def forward(self, x):
        return F.relu(self.l1(x))


class MLP0SubB(kusari.Chain):
    def forward(self, y):
        return y


class MLP0(chainermn.MultiNodeChainList):
    """Rank 0: l1, sent to rank 1; rank 1's output received back as the model's output."""

    def __init__(self, comm, n_out):
        super().__init__(comm=comm)
        self.add_link(MLP0SubA(n_out), rank_in=None, rank_out=1)
        self.add_link(MLP0SubB(), rank_in=1, rank_out=None)


class MLP1Sub(kusari.Chain):
    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, h0):
        return self.l3(F.relu(self.l2(h0)))


class MLP1(chainermn.MultiNodeChainList):
    """Rank 1: receives l1's output from rank 0, sends l3's output back."""

    def __init__(self, comm, n_units, n_out):
        super().__init__(comm=comm)
        self.add_link(MLP1Sub(n_units, n_out), rank_in=0, rank_out=0)


def main():
    parser = argparse.ArgumentParser(description="kusari.distributed example: MNIST, model parallel")
    parser.add_argument("--batchsize", "-b", type=int, default=100, help="examples per minibatch")
    parser.add_argument("--epoch", "-e", type=int, default=20, help="sweeps over the training set")
    parser.add_argument("--gpu", "-g", action="store_true", help="use a GPU per rank")
    parser.add_argument("--out", "-o", default="result", help="output directory")
    parser.add_argument("--unit", "-u", type=int, default=1000, help="units per hidden layer")
    args = parser.parse_args()

    if args.gpu:
        comm = chainermn.create_communicator("pure_nccl")
        device = kusari.get_device(f"@cupy:{comm.intra_rank}")
    else:
        comm = chainermn.create_communicator("naive")
        device = kusari.get_device("@numpy")
    if comm.size != 2:
        raise ValueError(f"train_mnist_model_parallel: runs on exactly 2 ranks, got {comm.size} "
                         "(mpiexec -n 2 python train_mnist_model_parallel.py)")
    if comm.rank == 0:
        print("==========================================")
        if args.gpu:
            print("Using GPUs")
        print(f"Num unit: {args.unit}")
        print(f"Num Minibatch-size: {args.batchsize}")
        print(f"Num epoch: {args.epoch}")
        print("==========================================", flush=True)

    model = L.Classifier(MLP0(comm, args.unit)) if comm.rank == 0 else MLP1(comm, args.unit, 10)
    model.to_device(device)
    optimizer = kusari.optimizers.Adam()
    optimizer.setup(model)

    # only rank 0 reads MNIST; rank 1 iterates over as many empty examples, in step with it
    train, test = kusari.datasets.get_mnist()
    if comm.rank == 1:
        train = chainermn.datasets.create_empty_dataset(train)
        test = chainermn.datasets.create_empty_dataset(test)
    train_iter = kusari.iterators.SerialIterator(train, args.batchsize, shuffle=False)
    test_iter = kusari.iterators.SerialIterator(test, args.batchsize, repeat=False, shuffle=False)

    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, "epoch"), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    if comm.rank == 0:
        trainer.extend(extensions.DumpGraph("main/loss"))
        trainer.extend(extensions.LogReport())
        trainer.extend(extensions.PrintReport(
            ["epoch", "main/loss", "validation/main/loss", "main/accuracy", "validation/main/accuracy",
             "elapsed_time"]))
        trainer.extend(extensions.ProgressBar())
    trainer.run()


if __name__ == "__main__":
    main()
