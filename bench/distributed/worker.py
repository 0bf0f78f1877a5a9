"""Runs under mpiexec: one benchmark job, its result as one JSON line on rank 0's stdout.

    mpiexec -n 2 python -m bench.distributed.worker allreduce --repeats 15
    mpiexec -n N python -m bench.distributed.worker mnist_epoch
"""
import argparse
import json
import statistics
import time

import numpy

import kusari
import kusari.distributed as chainermn
import kusari.functions as F
import kusari.links as L
from bench.distributed.shapes import resnet50_shapes


def _gradient_model(shapes):
    """A Link whose parameters have ``shapes``, with gradients of ones."""
    link = kusari.Link()
    with link.init_scope():
        for i, shape in enumerate(shapes):
            param = kusari.Parameter(numpy.zeros(shape, numpy.float32))
            param.grad = numpy.ones(shape, numpy.float32)
            setattr(link, f"p{i:03d}", param)
    return link


def allreduce(args):
    """Median seconds of: mpi4py's raw in-place Allreduce of a float32 buffer of ResNet-50's size, and
    multi_node_mean_grad of ResNet-50's 161 gradients (flat, naive) and of one tensor of that size (flat).
    The four are interleaved in every repetition, so that the shared machine's load hits them alike."""
    comm = chainermn.create_communicator("flat")
    from mpi4py import MPI   # initialized by create_communicator
    shapes = resnet50_shapes()
    total = sum(int(numpy.prod(s)) for s in shapes)
    raw = numpy.ones(total, numpy.float32)
    resnet, single = _gradient_model(shapes), _gradient_model([(total,)])
    communicators = {"flat": comm, "naive": chainermn.create_communicator("naive")}
    cases = {
        "raw": lambda: comm.mpi_comm.Allreduce(MPI.IN_PLACE, raw),
        "flat_resnet50": lambda: communicators["flat"].multi_node_mean_grad(resnet),
        "flat_one_tensor": lambda: communicators["flat"].multi_node_mean_grad(single),
        "naive_resnet50": lambda: communicators["naive"].multi_node_mean_grad(resnet),
    }
    times = {name: [] for name in cases}
    for repeat in range(args.repeats + 1):
        for name, case in cases.items():
            comm.mpi_comm.Barrier()
            start = time.perf_counter()
            case()
            elapsed = comm.allreduce_obj(time.perf_counter() - start) / comm.size
            if repeat:   # the first round warms up (buffers, pages)
                times[name].append(elapsed)
    if comm.rank == 0:
        print(json.dumps({"job": "allreduce", "ranks": comm.size, "floats": total, "tensors": len(shapes),
                          "seconds": {k: statistics.median(v) for k, v in times.items()},
                          "all_seconds": times}), flush=True)


class MLP(kusari.Chain):
    def __init__(self, n_units=1000):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(784, n_units)
            self.l2 = L.Linear(n_units, n_units)
            self.l3 = L.Linear(n_units, 10)

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))


def mnist_epoch(args):
    """Seconds of one epoch of the data-parallel example's training (MLP 784-1000-1000-10, Adam,
    100 examples per rank per step, 60,000 / (100 * ranks) steps), evaluation excluded."""
    comm = chainermn.create_communicator("naive")
    model = L.Classifier(MLP())
    optimizer = chainermn.create_multi_node_optimizer(kusari.optimizers.Adam(), comm).setup(model)
    train = kusari.datasets.get_mnist()[0] if comm.rank == 0 else None
    train = chainermn.scatter_dataset(train, comm, shuffle=True, seed=0)
    iterator = kusari.iterators.SerialIterator(train, args.batchsize, repeat=False)
    comm.mpi_comm.Barrier()
    start = time.perf_counter()
    steps = 0
    for batch in iterator:
        optimizer.update(model, *kusari.dataset.concat_examples(batch))
        steps += 1
    comm.mpi_comm.Barrier()
    seconds = time.perf_counter() - start
    if comm.rank == 0:
        print(json.dumps({"job": "mnist_epoch", "ranks": comm.size, "steps_per_rank": steps,
                          "seconds": seconds}), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("job", choices=("allreduce", "mnist_epoch"))
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--batchsize", type=int, default=100)
    args = parser.parse_args()
    {"allreduce": allreduce, "mnist_epoch": mnist_epoch}[args.job](args)


if __name__ == "__main__":
    main()
