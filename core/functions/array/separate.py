"""separate: split an array into its slices along an axis, removing that axis."""
from kusari import utils
from kusari.function_node import FunctionNode
from kusari.functions.array._common import fill_missing


class Separate(FunctionNode):
    def __init__(self, axis):
        self._axis = axis

    def forward(self, inputs):
        x = inputs[0]
        if x.ndim == 0:
            raise ValueError("separate: x must have at least one dimension, got shape ()")
        self._axis = axis = utils.normalize_axis("separate", self._axis, x.ndim)[0]
        lead = (slice(None),) * axis
        return tuple(utils.force_array(x[lead + (i,)]) for i in range(x.shape[axis]))

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.stack import stack
        node = self.inputs[0]
        shape = node.shape[:self._axis] + node.shape[self._axis + 1:]
        gys = fill_missing(grad_outputs, [shape] * len(grad_outputs), node.dtype)
        return stack(gys, self._axis),


def separate(x, axis=0):
    """The slices of ``x`` along ``axis``, each without that axis.

    ``x``: array of shape ``(..., n, ...)`` with ``n`` at ``axis``. Returns a tuple of ``n``
    Variables of shape ``(..., ...)``.
    """
    return Separate(axis).apply((x,))
