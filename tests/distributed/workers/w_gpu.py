"""Worker: GPU arrays through the MPI communicators (every GPU count), pure_nccl with float16 wire
and double buffering (one GPU per rank) (run by test_gpu). argv: 'mpi' or 'nccl'."""
import sys

import cupy
import numpy as np

import kusari
import kusari.distributed as chainermn
import kusari.links as L
from kusari import optimizers


def model_on(device, seed):
    model = kusari.Sequential(L.Linear(5, 7), L.Linear(7, 3))
    rng = np.random.RandomState(seed)
    for p in model.params():
        p.array[...] = rng.randn(*p.shape)
        p.grad = rng.randn(*p.shape).astype(np.float32)
    return model.to_device(device)


def check_mean(comm, device, rtol):
    model = model_on(device, comm.rank)
    grads = comm.allgather_obj({n: cupy.asnumpy(p.grad) for n, p in model.namedparams()})
    comm.multi_node_mean_grad(model)
    for name, p in model.namedparams():
        assert isinstance(p.grad, cupy.ndarray)
        np.testing.assert_allclose(cupy.asnumpy(p.grad), np.mean([g[name] for g in grads], axis=0), rtol=rtol,
                                   atol=rtol)
    comm.bcast_data(model)
    values = comm.allgather_obj({n: cupy.asnumpy(p.array) for n, p in model.namedparams()})
    assert all(np.array_equal(values[0][n], values[1][n]) for n in values[0])


def main(mode):
    if mode == "mpi":
        for name in ("naive", "non_cuda_aware"):
            comm = chainermn.create_communicator(name)
            device = kusari.get_device(f"@cupy:{comm.intra_rank % cupy.cuda.runtime.getDeviceCount()}")
            device.use()
            check_mean(comm, device, 1e-6)
            y = comm.allreduce(cupy.arange(4, dtype=cupy.float32))
            assert isinstance(y, cupy.ndarray) and y.tolist() == [0, 2, 4, 6]
            got = comm.bcast(cupy.ones((2, 2), cupy.float16) if comm.rank == 0 else None)
            assert isinstance(got, cupy.ndarray) and got.dtype == cupy.float16
    else:
        comm = chainermn.create_communicator("pure_nccl")
        device = kusari.get_device(f"@cupy:{comm.intra_rank}")
        device.use()
        check_mean(comm, device, 1e-6)
        check_mean(chainermn.create_communicator("pure_nccl", allreduce_grad_dtype=np.float16), device, 1e-2)
        model = model_on(device, comm.rank)
        opt = chainermn.create_multi_node_optimizer(optimizers.SGD(lr=0.1), comm, double_buffering=True)
        opt.setup(model)
        x = cupy.asarray(np.random.RandomState(comm.rank).randn(4, 5).astype(np.float32))
        for _ in range(4):
            opt.update(lambda: kusari.functions.sum(model(x) ** 2))
        values = comm.allgather_obj({n: cupy.asnumpy(p.array) for n, p in model.namedparams()})
        assert opt.t == 3   # the first step only starts the exchange
        assert all(np.array_equal(values[0][n], values[1][n]) for n in values[0])
    print("w_gpu.py ok", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
