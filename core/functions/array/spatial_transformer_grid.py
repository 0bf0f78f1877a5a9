"""spatial_transformer_grid: sampling coordinates of an affine spatial transformer."""
import numbers

import numpy

from kusari import backend, utils
from kusari.functions.array.reshape import reshape


def spatial_transformer_grid(theta, output_shape):
    """Coordinates where an affine transform ``theta`` sends a regular ``output_shape`` grid.

    ``theta``: array of shape ``(n, 2, 3)``; ``output_shape``: ``(h_O, w_O)``. The target grid
    spans ``[-1, 1]`` on both axes (``-1`` being the top/left pixel centre). Returns a Variable of
    shape ``(n, 2, h_O, w_O)`` whose channel 0 is the horizontal and 1 the vertical coordinate
    ``theta @ (x_t, y_t, 1)``, ready for ``spatial_transformer_sampler``.
    """
    from kusari.functions.math.matmul import matmul
    if theta.ndim != 3 or theta.shape[1:] != (2, 3):
        raise ValueError(f"spatial_transformer_grid: theta must have shape (n, 2, 3), got {theta.shape}")
    utils.check_float("spatial_transformer_grid", "theta", theta)
    shape = tuple(output_shape)
    if len(shape) != 2 or any(not isinstance(s, numbers.Integral) or s < 1 for s in shape):
        raise ValueError(f"spatial_transformer_grid: output_shape={output_shape!r} must be two "
                         "positive ints (h_O, w_O)")
    h, w = shape
    ys, xs = numpy.meshgrid(numpy.linspace(-1, 1, h), numpy.linspace(-1, 1, w), indexing="ij")
    target = numpy.stack([xs.ravel(), ys.ravel(), numpy.ones(h * w)]).astype(theta.dtype)
    xp = backend.get_array_module(theta)
    return reshape(matmul(theta, xp.asarray(target)), (theta.shape[0], 2, h, w))
