"""Worker: the communicators' collectives, gradient mean and error paths on every rank (run by test_communicator)."""
import sys

import numpy as np

import kusari
import kusari.distributed as chainermn
import kusari.links as L


def expect_error(kind, fragment, func, *args):
    try:
        func(*args)
    except kind as e:
        assert fragment in str(e), (fragment, str(e))
        return str(e)
    raise AssertionError(f"{func} did not raise {kind.__name__}")


def check_collectives(comm):
    r, n = comm.rank, comm.size
    assert comm.intra_size == n and comm.inter_size == 1 and comm.intra_rank == r and comm.inter_rank == 0
    for dtype in (np.float16, np.float32, np.float64, np.int32, np.int64, np.uint8, np.complex64):
        x = (np.arange(6).reshape(2, 3) + r).astype(dtype)
        y = comm.allreduce(x)
        assert y.dtype == dtype and y.shape == (2, 3), (y.dtype, y.shape)
        expected = sum((np.arange(6).reshape(2, 3) + k).astype(dtype) for k in range(n))
        np.testing.assert_array_equal(y, expected)
        b = comm.bcast(x if r == 1 else None, root=1)
        assert b.dtype == dtype
        np.testing.assert_array_equal(b, (np.arange(6).reshape(2, 3) + 1).astype(dtype))
    gathered = comm.allgather(np.full(r + 1, r, dtype=np.int16))
    assert [g.tolist() for g in gathered] == [[k] * (k + 1) for k in range(n)]
    assert all(g.dtype == np.int16 for g in gathered)
    g = comm.gather(np.float32(r) * np.ones((2, 2), np.float32), root=0)
    if r == 0:
        assert len(g) == n and all(a.dtype == np.float32 and a.shape == (2, 2) and (a == k).all()
                                   for k, a in enumerate(g))
    else:
        assert g is None
    xs = tuple(np.arange(k + 1, dtype=np.float64) * 10 for k in range(n)) if r == 0 else None
    s = comm.scatter(xs)
    np.testing.assert_array_equal(s, np.arange(r + 1) * 10.0)
    ys = comm.alltoall(tuple(np.array([r * 100 + k], dtype=np.int64) for k in range(n)))
    assert [y.tolist() for y in ys] == [[k * 100 + r] for k in range(n)]
    if r == 0:
        comm.send((np.ones(3, np.float16), np.zeros((2, 0), np.int8)), 1, 5)
        comm.send(np.eye(2), 1, 6)
    elif r == 1:
        a, z = comm.recv(0, 5)
        assert a.dtype == np.float16 and a.tolist() == [1, 1, 1] and z.shape == (2, 0) and z.dtype == np.int8
        np.testing.assert_array_equal(comm.recv(0, 6), np.eye(2))
    assert comm.allreduce_obj(r + 1) == n * (n + 1) // 2
    assert comm.bcast_obj({"a": r}, root=1) == {"a": 1}
    assert comm.gather_obj(r, root=1) == (list(range(n)) if r == 1 else None)
    assert comm.allgather_obj(str(r)) == [str(k) for k in range(n)]
    if r == 0:
        comm.send_obj(("hello", 3), dest=1, tag=9)
    elif r == 1:
        assert comm.recv_obj(0, tag=9) == ("hello", 3)
    sub = comm.split(color=r % 2, key=-r)
    assert sub.size == 1 and sub.rank == 0 and type(sub) is type(comm)
    assert sub.allreduce(np.ones(2)).tolist() == [1, 1]


def check_errors(comm):
    r = comm.rank
    msg = expect_error(ValueError, "same shape and dtype", comm.allreduce, np.zeros(2 + r, np.float32))
    assert "rank 1 has shape (3,)" in msg, msg
    msg = expect_error(ValueError, "same shape and dtype", comm.allreduce,
                       np.zeros(2, np.float32 if r == 0 else np.float64))
    assert "dtype float64" in msg
    expect_error(ValueError, "rank 1: expected a numpy or cupy array, got list", comm.allgather,
                 np.zeros(2) if r == 0 else [1, 2])
    expect_error(ValueError, "tuple of 2 arrays", comm.scatter, (np.zeros(1),) if r == 0 else None)
    expect_error(ValueError, "tuple of 2 arrays", comm.alltoall, (np.zeros(1),) * (1 + r))
    wide = L.Linear(3, 4 + r)
    wide.cleargrads()
    for p in wide.params():
        p.grad = np.ones_like(p.array)
    msg = expect_error(ValueError, "the ranks' models differ", comm.multi_node_mean_grad, wide)
    assert "'/W'" in msg and "rank 1" in msg, msg
    expect_error(ValueError, "the ranks' models differ", comm.bcast_data, wide)


def check_gradients(comm):
    r = comm.rank
    model = kusari.Sequential(L.Linear(5, 7), L.Linear(7, 3), L.Linear(3, 2, nobias=True))
    rng = np.random.RandomState(r)
    for p in model.params():
        p.array[...] = rng.randn(*p.shape)
        p.grad = rng.randn(*p.shape).astype(p.dtype)
    grads = comm.allgather_obj({name: p.grad.copy() for name, p in model.namedparams()})
    comm.multi_node_mean_grad(model)
    for name, p in model.namedparams():
        expected = np.mean([g[name] for g in grads], axis=0)
        if isinstance(comm, chainermn.communicators.mpi_communicators.DummyCommunicator):
            expected = grads[r][name] / comm.size   # packed and scaled, never summed
        np.testing.assert_allclose(p.grad, expected, rtol=1e-6, atol=1e-7)
    # a gradient reduced in place in slices (18 MB), and float16 and float64 ones packed apart
    mixed = kusari.Link()
    with mixed.init_scope():
        mixed.big = kusari.Parameter(np.zeros(4_500_000, np.float32))
        mixed.half = kusari.Parameter(np.zeros(10, np.float16))
        mixed.double = kusari.Parameter(np.zeros((3, 7), np.float64))
    for p in mixed.params():
        p.grad = (rng.randn(*p.shape) * 4).astype(p.dtype)
    grads = comm.allgather_obj({name: p.grad.copy() for name, p in mixed.namedparams()})
    comm.multi_node_mean_grad(mixed)
    dummy = isinstance(comm, chainermn.communicators.mpi_communicators.DummyCommunicator)
    for name, p in mixed.namedparams():
        expected = grads[r][name] / comm.size if dummy else np.mean([g[name] for g in grads], axis=0)
        assert p.grad.dtype == expected.dtype, (name, p.grad.dtype)
        np.testing.assert_allclose(p.grad, expected, rtol=1e-3 if p.dtype == np.float16 else 1e-6)
    # zero_fill: a parameter without a gradient takes part with zeros
    model[0].W.grad = None
    comm.allreduce_grad(model, zero_fill=True)
    assert model[0].W.grad is not None
    comm.bcast_data(model)
    values = comm.allgather_obj({name: p.array.copy() for name, p in model.namedparams()})
    for name, p in model.namedparams():
        np.testing.assert_array_equal(p.array, values[0][name])


def main():
    names = sys.argv[1:]
    for name in names:
        comm = chainermn.create_communicator(name)
        check_collectives(comm)
        check_errors(comm)
        check_gradients(comm)
    print("w_communicator.py ok", flush=True)


if __name__ == "__main__":
    main()
