"""stack: join arrays of one shape along a new axis."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.array.concat import check_joinable


class Stack(FunctionNode):
    def __init__(self, axis):
        self._axis = axis

    def forward(self, inputs):
        check_joinable("stack", inputs, None)
        self._axis = utils.normalize_axis("stack", self._axis, inputs[0].ndim + 1)[0]
        return backend.get_array_module(*inputs).stack(inputs, axis=self._axis),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.separate import separate
        gxs = separate(grad_outputs[0], self._axis)
        return tuple(gxs[i] for i in indexes)


def stack(xs, axis=0):
    """Stack the same-shaped arrays ``xs`` along a new ``axis``.

    ``xs``: ``k`` arrays of shape ``s``. Returns a Variable of shape ``s`` with ``k`` inserted at
    ``axis`` (e.g. ``(k,) + s`` for ``axis=0``).
    """
    xs = tuple(xs)
    if not xs:
        raise ValueError("stack: needs at least one array, got an empty sequence")
    return Stack(axis).apply(xs)[0]
