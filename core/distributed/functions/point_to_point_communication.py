"""send and recv: differentiable point-to-point communication between ranks (model parallelism).

The backward of a send receives the gradient from the peer, and the backward of a recv sends it
back, so the two ranks' graphs backpropagate as one. The backward is first order: a second-order
pass would need the peer's graph too.
"""
import numpy

from kusari import backend
from kusari.function_node import FunctionNode
from kusari.variable import Variable


def _zeros_like_outputs(xp, specs):
    return tuple(xp.zeros(shape, dtype) for shape, dtype in specs)


class Send(FunctionNode):
    """Sends its inputs to ``peer``; outputs a 0-dim delegate whose backward receives their gradients."""

    def __init__(self, comm, peer, tag):
        self.comm, self.peer, self.tag = comm, peer, tag

    @property
    def label(self):
        return "send"

    def forward(self, inputs):
        self.comm.send(inputs, self.peer, self.tag)
        return (backend.get_array_module(*inputs).zeros((), numpy.float32),)

    def backward(self, target_input_indexes, grad_outputs):
        grads = self.comm.recv(self.peer, self.tag)
        return tuple(Variable(grads[i]) for i in target_input_indexes)


class Recv(FunctionNode):
    """Receives arrays from ``peer``; its backward sends their gradients back. Its optional input
    is a delegate that chains this node after an earlier send of the same rank."""

    def __init__(self, comm, peer, tag, device):
        self.comm, self.peer, self.tag, self.device = comm, peer, tag, device

    @property
    def label(self):
        return "recv"

    def forward(self, inputs):
        ys = self.comm.recv(self.peer, self.tag)
        ys = ys if isinstance(ys, tuple) else (ys,)
        if self.device is not None:
            ys = tuple(self.device.send(y) for y in ys)
        self._specs = [(y.shape, y.dtype) for y in ys]
        return ys

    def backward(self, target_input_indexes, grad_outputs):
        xp = backend.get_array_module(*[g for g in grad_outputs if g is not None])
        zeros = _zeros_like_outputs(xp, self._specs)
        self.comm.send(tuple(z if g is None else g.array for g, z in zip(grad_outputs, zeros)), self.peer, self.tag)
        # the delegate's gradient is only a signal: it lets backprop reach the earlier send
        return tuple(Variable(xp.zeros((), numpy.float32)) for _ in target_input_indexes)


def send(x, communicator, rank: int, tag: int = 0):
    """Send ``x`` (a Variable or a tuple of them) to ``rank``; returns a delegate Variable.

    Calling ``backward()`` on the delegate (or on a value joined to it by :func:`pseudo_connect` or
    a later :func:`recv`) receives ``x``'s gradient from ``rank``, which must backpropagate through
    its matching :func:`recv`.
    """
    if rank == communicator.rank:
        raise ValueError(f"send: rank {rank} is this rank; a rank cannot send to itself")
    xs = x if isinstance(x, (tuple, list)) else (x,)
    return Send(communicator, rank, tag).apply(tuple(xs))[0]


def recv(communicator, rank: int, delegate_variable=None, tag: int = 0, device=None, force_tuple: bool = False):
    """Receive what ``rank`` sent with :func:`send`: a Variable, or a tuple of them when several were
    sent (or ``force_tuple``).

    ``delegate_variable``: the delegate of an earlier :func:`send` on this rank, so that
    backpropagating through this recv continues into that send. ``device``: where to put the arrays.
    """
    if rank == communicator.rank:
        raise ValueError(f"recv: rank {rank} is this rank; a rank cannot receive from itself")
    if device is not None:
        device = backend.get_device(device)
    if delegate_variable is None:
        # a node without an input needing a gradient would not be recorded, and its backward (the
        # send back to ``rank``) would never run
        delegate_variable = Variable(numpy.zeros((), numpy.float32), requires_grad=True)
    ys = Recv(communicator, rank, tag, device).apply((delegate_variable,))
    if len(ys) == 1 and not force_tuple:
        return ys[0]
    return ys
