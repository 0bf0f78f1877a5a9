"""spatial_transformer_sampler: bilinear sampling of images at given coordinates (zero outside)."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.array._common import add_at


class _Corners:
    """The 2x2 pixel neighbourhood of every sampling point, as flat indices into ``(n*h*w, c)``.

    Corner k = (dv, du) in (0, 0), (0, 1), (1, 0), (1, 1) of the point (v, u) is pixel
    (floor(v) + dv, floor(u) + du); corners outside the image read as zero.
    """

    def __init__(self, xp, v0, u0, shape):
        n, c, h, w = shape
        self.shape = shape
        index, valid = [], []
        for dv, du in ((0, 0), (0, 1), (1, 0), (1, 1)):
            v, u = v0 + dv, u0 + du
            valid.append((v >= 0) & (v < h) & (u >= 0) & (u < w))
            index.append(xp.clip(v, 0, h - 1) * w + xp.clip(u, 0, w - 1))
        base = (xp.arange(n) * (h * w)).reshape(n, 1, 1)
        self.index = (xp.stack(index, axis=1).reshape(n, 4, -1) + base).ravel()
        self.valid = xp.stack(valid, axis=1).ravel()

    def gather(self, x):
        """x of shape (n, c, h, w) -> corner values of shape (n, c, 4, P)."""
        n, c, h, w = self.shape
        rows = x.reshape(n, c, h * w).transpose(0, 2, 1).reshape(n * h * w, c)
        vals = rows[self.index] * self.valid[:, None].astype(x.dtype)
        return vals.reshape(n, 4, -1, c).transpose(0, 3, 1, 2)

    def scatter(self, g):
        """The adjoint of ``gather``: corner gradients (n, c, 4, P) -> (n, c, h, w)."""
        n, c, h, w = self.shape
        xp = backend.get_array_module(g)
        vals = g.transpose(0, 2, 3, 1).reshape(-1, c) * self.valid[:, None].astype(g.dtype)
        rows = xp.zeros((n * h * w, c), g.dtype)
        add_at(rows, self.index, vals)
        return rows.reshape(n, h * w, c).transpose(0, 2, 1).reshape(n, c, h, w)


class _Gather(FunctionNode):
    def __init__(self, corners):
        self._corners = corners

    def forward(self, inputs):
        return self._corners.gather(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return _Scatter(self._corners).apply(grad_outputs)


class _Scatter(FunctionNode):
    def __init__(self, corners):
        self._corners = corners

    def forward(self, inputs):
        return self._corners.scatter(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return _Gather(self._corners).apply(grad_outputs)


def _bilinear_weights(fv, fu):
    """Weights of corners (0, 0), (0, 1), (1, 0), (1, 1) for fractional offsets (arrays or Variables)."""
    return [(1 - fv) * (1 - fu), (1 - fv) * fu, fv * (1 - fu), fv * fu]


class SpatialTransformerSampler(FunctionNode):
    """Bilinear sampler; ``normalized`` grids span [-1, 1] over the image, otherwise pixel units."""

    def __init__(self, normalized=True):
        self._normalized = normalized

    def _scales(self, shape):
        """(scale, shift) per coordinate (v, u) turning grid values into pixel coordinates."""
        h, w = shape[2:]
        if not self._normalized:
            return (1.0, 0.0), (1.0, 0.0)
        return ((h - 1) / 2, (h - 1) / 2), ((w - 1) / 2, (w - 1) / 2)

    def forward(self, inputs):
        x, grid = inputs
        _check_args(x, grid)
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x)
        n, c = x.shape[:2]
        (sv, tv), (su, tu) = self._scales(x.shape)
        v = grid[:, 1] * sv + tv
        u = grid[:, 0] * su + tu
        self._v0 = xp.floor(v)
        self._u0 = xp.floor(u)
        self._corners = _Corners(xp, self._v0.astype(numpy.intp), self._u0.astype(numpy.intp), x.shape)
        weights = _bilinear_weights(v - self._v0, u - self._u0)
        vals = self._corners.gather(x)
        y = sum(vals[:, :, k] * weights[k].reshape(n, 1, -1) for k in range(4))
        return y.reshape((n, c) + grid.shape[2:]),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.get_item import get_item
        from kusari.functions.array.reshape import reshape
        from kusari.functions.array.separate import separate
        from kusari.functions.array.stack import stack
        from kusari.functions.math.sum import sum as _sum
        x, grid = self.get_retained_inputs()
        n, c = x.shape[:2]
        p = utils.size_of_shape(grid.shape[2:])
        (sv, tv), (su, tu) = self._scales(x.shape)
        # the fractional offsets as functions of grid, so that the gradient is differentiable too
        fv = reshape(get_item(grid, (slice(None), 1)) * sv + tv - self._v0, (n, 1, p))
        fu = reshape(get_item(grid, (slice(None), 0)) * su + tu - self._u0, (n, 1, p))
        gy = reshape(grad_outputs[0], (n, c, p))
        ret = []
        for i in indexes:
            if i == 0:
                weights = stack(_bilinear_weights(fv, fu), axis=2)
                g, = _Scatter(self._corners).apply((reshape(gy, (n, c, 1, p)) * weights,))
            else:
                c00, c01, c10, c11 = separate(_Gather(self._corners).apply((x,))[0], axis=2)
                gu = _sum(gy * ((1 - fv) * (c01 - c00) + fv * (c11 - c10)), axis=1) * su
                gv = _sum(gy * ((1 - fu) * (c10 - c00) + fu * (c11 - c01)), axis=1) * sv
                g = reshape(stack([gu, gv], axis=1), grid.shape)
            ret.append(g)
        return tuple(ret)


def _check_args(x, grid):
    fname = "spatial_transformer_sampler"
    if x.ndim != 4:
        raise ValueError(f"{fname}: x must be 4-dimensional (n, c, h, w), got shape {x.shape}")
    if grid.ndim != 4 or grid.shape[1] != 2:
        raise ValueError(f"{fname}: grid must have shape (n, 2, h_O, w_O), got {grid.shape}")
    if grid.shape[0] != x.shape[0]:
        raise ValueError(f"{fname}: grid.shape[0]={grid.shape[0]} does not match "
                         f"x.shape[0]={x.shape[0]}")
    utils.check_float(fname, "x", x)
    utils.check_same_dtype(fname, x=x, grid=grid)


def spatial_transformer_sampler(x, grid):
    """Sample images ``x`` bilinearly at the points ``grid`` (Spatial Transformer Networks).

    ``x``: array of shape ``(n, c, h, w)``. ``grid``: array of shape ``(n, 2, h_O, w_O)``;
    ``grid[:, 0]`` is the horizontal and ``grid[:, 1]`` the vertical coordinate, ``(-1, -1)``
    being the centre of the top-left pixel and ``(1, 1)`` of the bottom-right one. Points outside
    read from a zero-padded image. Returns a Variable of shape ``(n, c, h_O, w_O)``;
    gradients flow to both ``x`` and ``grid``.
    """
    return SpatialTransformerSampler().apply((x, grid))[0]
