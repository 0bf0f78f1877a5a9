"""bcast, gather, allgather, scatter, alltoall, allreduce: differentiable collectives over the ranks.

Each backward is the adjoint collective (bcast <-> gather-and-sum, scatter <-> gather, allgather ->
alltoall-and-sum, alltoall <-> alltoall, allreduce <-> allreduce), so every rank must backpropagate
through its part. Ranks that contribute no input pass a delegate that carries no data. First order only.
"""
import numpy

from kusari import backend
from kusari.function_node import FunctionNode
from kusari.variable import Variable


def _delegate():
    """A 0-dim Variable that makes a rank without real inputs record the node (and run its backward)."""
    return Variable(numpy.zeros((), numpy.float32), requires_grad=True)


def _grads(grad_outputs, specs):
    """The gradient arrays, zeros where a gradient is None."""
    xp = backend.get_array_module(*[g for g in grad_outputs if g is not None])
    return tuple(xp.zeros(shape, dtype) if g is None else g.array for g, (shape, dtype) in zip(grad_outputs, specs))


def _delegate_grads(indexes):
    return tuple(Variable(numpy.zeros((), numpy.float32)) for _ in indexes)


class _Collective(FunctionNode):
    def __init__(self, comm, root=0):
        self.comm, self.root = comm, root

    @property
    def label(self):
        return type(self).__name__.lower()

    def _outputs(self, ys):
        self._specs = [(y.shape, y.dtype) for y in ys]
        return tuple(ys)


class Bcast(_Collective):
    def forward(self, inputs):
        return self._outputs((self.comm.bcast(inputs[0] if self.comm.rank == self.root else None, root=self.root),))

    def backward(self, target_input_indexes, grad_outputs):
        gy, = _grads(grad_outputs, self._specs)
        gathered = self.comm.gather(gy, root=self.root)
        if self.comm.rank == self.root:
            return (Variable(sum(gathered[1:], gathered[0].copy())),)
        return _delegate_grads(target_input_indexes)


class Gather(_Collective):
    def forward(self, inputs):
        ys = self.comm.gather(inputs[0], root=self.root)
        if self.comm.rank == self.root:
            return self._outputs(ys)
        return self._outputs((numpy.zeros((), numpy.float32),))

    def backward(self, target_input_indexes, grad_outputs):
        gys = _grads(grad_outputs, self._specs) if self.comm.rank == self.root else None
        return (Variable(self.comm.scatter(gys, root=self.root)),)


class Allgather(_Collective):
    def forward(self, inputs):
        return self._outputs(self.comm.allgather(inputs[0]))

    def backward(self, target_input_indexes, grad_outputs):
        received = self.comm.alltoall(_grads(grad_outputs, self._specs))
        return (Variable(sum(received[1:], received[0].copy())),)


class Scatter(_Collective):
    def forward(self, inputs):
        return self._outputs((self.comm.scatter(inputs if self.comm.rank == self.root else None, root=self.root),))

    def backward(self, target_input_indexes, grad_outputs):
        gy, = _grads(grad_outputs, self._specs)
        gathered = self.comm.gather(gy, root=self.root)
        if self.comm.rank == self.root:
            return tuple(Variable(gathered[i]) for i in target_input_indexes)
        return _delegate_grads(target_input_indexes)


class Alltoall(_Collective):
    def forward(self, inputs):
        return self._outputs(self.comm.alltoall(inputs))

    def backward(self, target_input_indexes, grad_outputs):
        received = self.comm.alltoall(_grads(grad_outputs, self._specs))
        return tuple(Variable(received[i]) for i in target_input_indexes)


class Allreduce(_Collective):
    """The elementwise sum over the ranks (self-adjoint)."""

    def forward(self, inputs):
        return self._outputs((self.comm.allreduce(inputs[0]),))

    def backward(self, target_input_indexes, grad_outputs):
        gy, = _grads(grad_outputs, self._specs)
        return (Variable(self.comm.allreduce(gy)),)


def bcast(comm, x, root: int = 0):
    """Root's ``x`` (a Variable) on every rank; ``x`` is ignored (may be None) on the other ranks.
    Backward: the gradients of every rank, summed, reach the root's ``x``."""
    return Bcast(comm, root).apply((x if comm.rank == root else _delegate(),))[0]


def gather(comm, x, root: int = 0):
    """On the root, the tuple of every rank's ``x``; elsewhere a delegate to call ``backward()`` on."""
    ys = Gather(comm, root).apply((x,))
    return ys if comm.rank == root else ys[0]


def allgather(comm, x):
    """The tuple of every rank's ``x`` on every rank."""
    return Allgather(comm).apply((x,))


def scatter(comm, xs, root: int = 0):
    """Rank ``i`` gets ``xs[i]`` of the root (``xs``: ``size`` Variables on the root, ignored elsewhere)."""
    if comm.rank == root:
        if not isinstance(xs, (tuple, list)) or len(xs) != comm.size:
            got = f"{type(xs).__name__} of length {len(xs)}" if isinstance(xs, (tuple, list)) else type(xs).__name__
            raise ValueError(f"scatter: the root must pass {comm.size} Variables (one per rank), got {got}")
        return Scatter(comm, root).apply(tuple(xs))[0]
    return Scatter(comm, root).apply((_delegate(),))[0]


def alltoall(comm, xs):
    """Rank ``i`` sends ``xs[j]`` to rank ``j``; returns the tuple of what it received."""
    if not isinstance(xs, (tuple, list)) or len(xs) != comm.size:
        raise ValueError(f"alltoall: expected {comm.size} Variables (one per rank), got "
                         f"{len(xs) if isinstance(xs, (tuple, list)) else type(xs).__name__}")
    return Alltoall(comm).apply(tuple(xs))


def allreduce(comm, x):
    """The elementwise sum of every rank's ``x`` (same shape and dtype), on every rank."""
    return Allreduce(comm).apply((x,))[0]
