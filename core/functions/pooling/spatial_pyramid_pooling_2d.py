"""spatial_pyramid_pooling_2d: max pooling over 1x1, 2x2, 4x4, ... grids, flattened and concatenated."""
import math

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.pooling import _window


class SpatialPyramidPooling2D(FunctionNode):
    def __init__(self, pyramid_height):
        self._height = pyramid_height

    def forward(self, inputs):
        x = inputs[0]
        fname = "spatial_pyramid_pooling_2d"
        utils.check_float(fname, "x", x)
        utils.check_ndim(fname, "x", x, 4)
        n, dims = x.shape[0], x.shape[2:]
        xp = backend.get_array_module(x)
        self._levels = []
        ys = []
        for level in range(self._height):
            bins = 2 ** level
            ksize = tuple(math.ceil(d / bins) for d in dims)
            pad = tuple((k * bins - d) // 2 for k, d in zip(ksize, dims))
            geom = _window.pooling_geometry(fname, x, 2, ksize, None, pad, True)
            y, indexes = _window.window_max(x, geom)
            self._levels.append((geom, indexes))
            ys.append(y.reshape(n, -1))
        return xp.concatenate(ys, axis=1).reshape(n, -1, 1, 1),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.reshape import reshape
        gy = grad_outputs[0]
        gy = reshape(gy, gy.shape[:2])
        gx = None
        start = 0
        for geom, idx in self._levels:
            stop = start + utils.size_of_shape(idx.shape[1:])
            g = reshape(gy[:, start:stop], idx.shape)
            g = _window.WindowScatter(geom, idx).apply((g,))[0]
            gx = g if gx is None else gx + g
            start = stop
        return gx,


def spatial_pyramid_pooling_2d(x, pyramid_height, pooling="max"):
    """Spatial pyramid pooling: a fixed-length descriptor whatever the input size.

    Level i (0-based) max-pools x (n, c, h, w) with ksize ceil((h, w) / 2**i), stride = ksize and
    pad (2**i * ksize - (h, w)) // 2 (cover_all), flattening each level; a bin lying entirely in
    the padding (small inputs, deep pyramids) gives 0. Returns
    (n, c * sum over levels of out_h * out_w, 1, 1), usually (n, c * sum_i 4**i, 1, 1).
    """
    if pooling != "max":
        raise ValueError(f"spatial_pyramid_pooling_2d: pooling must be 'max', got {pooling!r}")
    if isinstance(pyramid_height, bool) or not isinstance(pyramid_height, int) or pyramid_height < 1:
        raise ValueError(f"spatial_pyramid_pooling_2d: pyramid_height must be a positive int, "
                         f"got {pyramid_height!r}")
    return SpatialPyramidPooling2D(pyramid_height).apply((x,))[0]
