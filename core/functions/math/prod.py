"""prod: product of elements over axes, with a gradient that is exact where elements are zero."""
import numpy

from kusari import utils
from kusari.function_node import FunctionNode
from kusari.functions.math.cumprod import Shift, cumprod
from kusari.functions.math.cumsum import reverse


class Prod(FunctionNode):
    def __init__(self, axis, keepdims):
        self._axis = axis
        self._keepdims = keepdims

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("prod", "x", x)
        self._axes = utils.normalize_axis("prod", self._axis, x.ndim)
        self.retain_inputs((0,))
        return utils.force_array(x.prod(axis=self._axes, keepdims=self._keepdims)),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.broadcast import broadcast_to
        from kusari.functions.array.reshape import reshape
        from kusari.functions.array.transpose import transpose
        x, = self.get_retained_inputs()
        gy = grad_outputs[0]
        if not self._axes:
            return reshape(gy, x.shape),
        # d prod / d x_j is the product of the others: (product before j) * (product after j),
        # taken with cumulative products over the reduced axes flattened to one, never x / x_j.
        kept = [i for i in range(x.ndim) if i not in self._axes]
        perm = tuple(kept) + self._axes
        kept_shape = tuple(x.shape[i] for i in kept)
        n = utils.size_of_shape(x.shape[i] for i in self._axes)
        flat = reshape(transpose(x, perm), kept_shape + (n,))
        last = len(kept_shape)
        before = Shift(last, 1, fill=1).apply((cumprod(flat, last),))[0]
        after = reverse(Shift(last, 1, fill=1).apply((cumprod(reverse(flat, last), last),))[0], last)
        gy = broadcast_to(reshape(gy, kept_shape + (1,)), flat.shape)
        gx = reshape(gy * before * after, tuple(x.shape[i] for i in perm))
        return transpose(gx, tuple(int(i) for i in numpy.argsort(perm))),


def prod(x, axis=None, keepdims=False):
    """Product of ``x``'s elements over ``axis`` (None: all axes; an int or a tuple of ints).

    Returns ``x``'s shape without the reduced axes (kept as length 1 with ``keepdims``).
    """
    return Prod(axis, keepdims).apply((x,))[0]
