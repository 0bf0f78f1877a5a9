"""maxout: the maximum over consecutive groups of pool_size channels."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.activation.softmax import single_axis


class Maxout(FunctionNode):
    def __init__(self, pool_size, axis):
        self.pool_size = pool_size
        self.axis = axis

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("maxout", "x", x)
        axis = self.axis = single_axis("maxout", self.axis, x)
        channels = x.shape[axis]
        if channels % self.pool_size:
            raise ValueError(f"maxout: x.shape[{axis}]={channels} is not a multiple of "
                             f"pool_size={self.pool_size} (x.shape={x.shape})")
        xp = backend.get_array_module(x)
        r = x.reshape(x.shape[:axis] + (channels // self.pool_size, self.pool_size)
                      + x.shape[axis + 1:])
        self._argmax = r.argmax(axis=axis + 1)
        y = xp.take_along_axis(r, xp.expand_dims(self._argmax, axis + 1), axis=axis + 1)
        return y.reshape(self._argmax.shape),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.reshape import reshape
        gy = grad_outputs[0]
        axis = self.axis
        xp = backend.get_array_module(self._argmax)
        index_shape = (1,) * (axis + 1) + (self.pool_size,) + (1,) * (gy.ndim - axis - 1)
        winners = xp.arange(self.pool_size).reshape(index_shape)
        onehot = (xp.expand_dims(self._argmax, axis + 1) == winners).astype(gy.dtype)
        kept = gy.shape[:axis + 1] + (1,) + gy.shape[axis + 1:]
        return reshape(reshape(gy, kept) * onehot, self.inputs[0].shape),


def maxout(x, pool_size, axis=1):
    """Maxout: split ``axis`` into groups of ``pool_size`` consecutive entries, keep each maximum.

    x: float array whose ``axis`` dimension ``C`` is a multiple of ``pool_size``; returns a
    Variable with that dimension reduced to ``C // pool_size``. Gradients go to the first
    maximum of each group.
    """
    if isinstance(pool_size, bool) or not isinstance(pool_size, (int, numpy.integer)) \
            or pool_size <= 0:
        raise ValueError(f"maxout: pool_size must be a positive int, got {pool_size!r}")
    return Maxout(int(pool_size), axis).apply((x,))[0]
