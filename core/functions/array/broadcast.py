"""broadcast_to and broadcast: expand arrays along size-1 and missing leading axes."""
from kusari.function_node import FunctionNode
from kusari.variable import as_variable
from kusari import backend
from kusari.utils.type_check import InvalidType


class BroadcastTo(FunctionNode):
    def __init__(self, shape):
        self._shape = tuple(shape)

    def forward(self, inputs):
        x = inputs[0]
        xp = backend.get_array_module(x)
        try:
            return xp.broadcast_to(x, self._shape),
        except ValueError:
            raise InvalidType(None, None, f"broadcast_to: shape {x.shape} cannot be broadcast to {self._shape}") from None

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.sum_to import sum_to
        return sum_to(grad_outputs[0], self.inputs[0].shape),


def broadcast_to(x, shape):
    """Broadcast ``x`` to ``shape`` (NumPy rules); the result is a read-only view in the forward pass."""
    shape = tuple(shape)
    if getattr(x, "shape", None) == shape:
        return as_variable(x)
    return BroadcastTo(shape).apply((x,))[0]


def broadcast(*args):
    """Broadcast every input to their common shape; returns one Variable per input (or the one)."""
    if not args:
        raise InvalidType(None, None, "broadcast: needs at least one input")
    xp = backend.get_array_module(*args)
    shapes = [a.shape for a in args]
    try:
        shape = xp.broadcast_shapes(*shapes)
    except ValueError:
        raise InvalidType(None, None, f"broadcast: shapes {shapes} are not broadcastable") from None
    out = tuple(broadcast_to(a, shape) for a in args)
    return out[0] if len(out) == 1 else out
