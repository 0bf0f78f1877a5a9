#!/usr/bin/env python
"""Data-parallel MNIST with kusari.distributed (ChainerMN's train_mnist.py, same arguments).

    mpiexec -n 2 python train_mnist_data_parallel.py --epoch 2 --communicator naive

Each rank trains a copy of the MLP on its shard of the training set; the multi-node optimizer averages
the gradients, so the copies stay identical. Rank 0 loads MNIST and scatters it.
"""
import argparse

import kusari
import kusari.distributed as chainermn
import kusari.functions as F
import kusari.links as L
from kusari import training
from kusari.training import extensions


class MLP(kusari.Chain):
    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))


def main():
    parser = argparse.ArgumentParser(description="kusari.distributed example: MNIST, data parallel")
    parser.add_argument("--batchsize", "-b", type=int, default=100, help="examples per minibatch on each rank")
    parser.add_argument("--communicator", type=str, default="pure_nccl", help="type of communicator")
    parser.add_argument("--epoch", "-e", type=int, default=20, help="sweeps over the training set")
    parser.add_argument("--gpu", "-g", action="store_true", help="use a GPU per rank")
    parser.add_argument("--out", "-o", default="result", help="output directory")
    parser.add_argument("--resume", "-r", default="", help="snapshot file to resume from")
    parser.add_argument("--unit", "-u", type=int, default=1000, help="units per hidden layer")
    args = parser.parse_args()

    if args.gpu:
        comm = chainermn.create_communicator(args.communicator)
        device = kusari.get_device(f"@cupy:{comm.intra_rank}")
    else:
        if args.communicator not in ("naive", "flat"):
            print(f"Warning: the {args.communicator!r} communicator needs GPUs; using 'naive' on the CPU")
            args.communicator = "naive"
        comm = chainermn.create_communicator(args.communicator)
        device = kusari.get_device("@numpy")

    if comm.rank == 0:
        print("==========================================")
        print(f"Num process (COMM_WORLD): {comm.size}")
        if args.gpu:
            print("Using GPUs")
        print(f"Using {args.communicator} communicator")
        print(f"Num unit: {args.unit}")
        print(f"Num Minibatch-size: {args.batchsize}")
        print(f"Num epoch: {args.epoch}")
        print("==========================================", flush=True)

    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    optimizer = chainermn.create_multi_node_optimizer(kusari.optimizers.Adam(), comm)
    optimizer.setup(model)

    # rank 0 reads the dataset; every rank gets an equal shard
    train, test = kusari.datasets.get_mnist() if comm.rank == 0 else (None, None)
    train = chainermn.scatter_dataset(train, comm, shuffle=True)
    test = chainermn.scatter_dataset(test, comm, shuffle=True)
    train_iter = kusari.iterators.SerialIterator(train, args.batchsize)
    test_iter = kusari.iterators.SerialIterator(test, args.batchsize, repeat=False, shuffle=False)

    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, "epoch"), out=args.out)
    evaluator = extensions.Evaluator(test_iter, model, device=device)
    trainer.extend(chainermn.create_multi_node_evaluator(evaluator, comm))
    if comm.rank == 0:   # one rank reports (every rank's would be the same lines)
        trainer.extend(extensions.DumpGraph("main/loss"))
        trainer.extend(extensions.LogReport())
        trainer.extend(extensions.PrintReport(
            ["epoch", "main/loss", "validation/main/loss", "main/accuracy", "validation/main/accuracy",
             "elapsed_time"]))
        trainer.extend(extensions.ProgressBar())
    if args.resume:
        kusari.serializers.load_npz(args.resume, trainer)
    trainer.run()


if __name__ == "__main__":
    main()
