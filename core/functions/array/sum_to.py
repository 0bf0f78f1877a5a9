"""sum_to: sum an array down to a shape it was broadcast from."""
from kusari.function_node import FunctionNode
from kusari import utils


def _sum_to(x, shape):
    """``x`` (an array) summed down to ``shape``; ``x`` itself when it has that shape already."""
    if x.shape == shape:
        return x
    ndim = len(shape)
    lead = x.ndim - ndim
    if lead < 0:
        raise ValueError(f"sum_to: cannot sum shape {x.shape} to the longer shape {shape}")
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and x.shape[i + lead] != 1)
    for i, s in enumerate(shape):
        if s != 1 and x.shape[i + lead] != s:
            raise ValueError(f"sum_to: shape {x.shape} cannot be summed to {shape}")
    y = x.sum(axis=axes, keepdims=True) if axes else x
    if lead:
        y = y.reshape(shape)
    return utils.force_array(y)


class SumTo(FunctionNode):
    def __init__(self, shape):
        self._shape = tuple(shape)

    def forward(self, inputs):
        return _sum_to(inputs[0], self._shape),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.broadcast import broadcast_to
        return broadcast_to(grad_outputs[0], self.inputs[0].shape),


def sum_to(x, shape):
    """Sum ``x`` over the axes it was broadcast along so that the result has ``shape``.

    ``x``: array of a shape ``shape`` broadcasts to; returns a Variable of ``shape``.
    """
    shape = tuple(shape)
    if getattr(x, "shape", None) == shape:
        from kusari.variable import as_variable
        return as_variable(x)
    return SumTo(shape).apply((x,))[0]
