"""upsampling_2d: put each value back where max_pooling_2d found it, using the pooling indexes."""
from kusari.function_node import FunctionNode
from kusari.functions.pooling import _window
from kusari.functions.pooling.unpooling_nd import unpooling_geometry


class Upsampling2D(FunctionNode):
    def __init__(self, indexes, ksize, stride, pad, outsize, cover_all):
        self._indexes = indexes
        self._args = (ksize, stride, pad, outsize, cover_all)

    def forward(self, inputs):
        x = inputs[0]
        self._geom = unpooling_geometry("upsampling_2d", x, 2, *self._args)
        indexes = self._indexes
        if indexes.dtype.kind not in "iu":
            raise TypeError(f"upsampling_2d: indexes must be an integer array, got dtype {indexes.dtype}")
        if tuple(indexes.shape) != tuple(x.shape):
            raise ValueError(f"upsampling_2d: indexes.shape={tuple(indexes.shape)} does not match "
                             f"x.shape={tuple(x.shape)}")
        return _window.window_scatter(x, self._geom, indexes),

    def backward(self, indexes, grad_outputs):
        return _window.WindowGather(self._geom, self._indexes).apply(grad_outputs)


def upsampling_2d(x, indexes, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Max-unpooling with the indexes returned by ``max_pooling_2d(..., return_indices=True)``.

    x: (n, c, h, w), pooled with ksize, stride, pad and cover_all; indexes: integer array of x's
    shape holding each value's flat position inside its ksize window. Returns (n, c, out_h, out_w)
    (``outsize``, default the size that pools back to (h, w)), zero except at the recorded argmax
    positions; values whose windows overlap add up.
    """
    return Upsampling2D(indexes, ksize, stride, pad, outsize, cover_all).apply((x,))[0]
