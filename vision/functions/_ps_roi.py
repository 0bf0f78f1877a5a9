"""What the position-sensitive RoI ops share: argument checks, the bins and sample points of each RoI
along each axis, the channel each output bin reads, and a linear "tap" map with its adjoint.

Output bin (r, c, p, q) of a position-sensitive op reads input channel ``(c * G + gh(p)) * G + gw(q)``
of image ``roi_indices[r]``, with ``gh(p) = floor(p * G / out_h)`` (G = ``group_size``), and combines
input elements along rows chosen by (r, p) and columns chosen by (r, q). Each op is linear in x
(a max op once it has chosen its samples) and is described by *taps*: terms ``weight *
source[offset + row * width + col]`` summed per output element, ``source`` being x (or its
integral image) read channel-last (see ``Taps``). ``TapGather`` applies the map, ``TapScatter``
its adjoint; each is the other's backward, so the ops are differentiable any number of times.

Coordinates follow ChainerCV 0.13.1's CPU code, computed in float64 in its order of operations, so
bins and sample points fall on the same pixels.
"""
import numpy

from kusari import FunctionNode, backend, utils


def parse_args(fname: str, outsize, spatial_scale, group_size, sampling_ratio=None, align=False):
    """Validated (out_c or None, out_h, out_w), spatial_scale, group_size and (ratio_h, ratio_w)."""
    if isinstance(outsize, (tuple, list)):
        if len(outsize) not in (2, 3):
            raise ValueError(f"{fname}: outsize must be an int, (out_h, out_w) or (out_c, out_h, out_w), "
                             f"got {outsize!r}")
        sizes = (None,) * (3 - len(outsize)) + tuple(outsize)
    else:
        sizes = (None, outsize, outsize)
    for name, value in zip(("out_c", "out_h", "out_w"), sizes):
        if value is None and name == "out_c":
            continue
        if not _positive_int(value):
            raise ValueError(f"{fname}: outsize's {name} must be a positive int, got {value!r} "
                             f"(outsize={outsize!r})")
    if isinstance(spatial_scale, bool) or not isinstance(spatial_scale, (int, float, numpy.number)) \
            or not spatial_scale > 0:
        raise ValueError(f"{fname}: spatial_scale must be a positive number, got {spatial_scale!r}")
    if not _positive_int(group_size):
        raise ValueError(f"{fname}: group_size must be a positive int, got {group_size!r}")
    ratio = (None, None)
    if align:
        ratio = tuple(sampling_ratio) if isinstance(sampling_ratio, (tuple, list)) \
            else (sampling_ratio, sampling_ratio)
        if len(ratio) != 2 or not all(r is None or _positive_int(r) for r in ratio):
            raise ValueError(f"{fname}: sampling_ratio must be None, an int >= 1 or a pair of them, "
                             f"got {sampling_ratio!r}")
        ratio = tuple(None if r is None else int(r) for r in ratio)
    out_c, out_h, out_w = (None if s is None else int(s) for s in sizes)
    return (out_c, out_h, out_w), float(spatial_scale), int(group_size), ratio


def _positive_int(value) -> bool:
    return isinstance(value, (int, numpy.integer)) and not isinstance(value, bool) and value > 0


def check_inputs(fname: str, inputs, out_c, group_size) -> None:
    """Validate (x, rois, roi_indices) and x's channels against out_c (None: any multiple of G * G)."""
    if len(inputs) != 3:
        raise TypeError(f"{fname}: expected inputs (x, rois, roi_indices), got {len(inputs)} inputs")
    x, rois, roi_indices = inputs
    utils.check_float(fname, "x", x)
    utils.check_ndim(fname, "x", x, 4)
    utils.check_float(fname, "rois", rois)
    utils.check_same_dtype(fname, x=x, rois=rois)
    if rois.ndim != 2 or rois.shape[1] != 4:
        raise ValueError(f"{fname}: rois must have shape (R, 4) as (y_min, x_min, y_max, x_max), "
                         f"got shape={tuple(rois.shape)}")
    if roi_indices.dtype.kind not in "iu":
        raise TypeError(f"{fname}: roi_indices must be an integer array, got dtype {roi_indices.dtype}")
    n_rois, n_images = rois.shape[0], x.shape[0]
    if tuple(roi_indices.shape) != (n_rois,):
        raise ValueError(f"{fname}: roi_indices.shape={tuple(roi_indices.shape)} does not match the number of "
                         f"RoIs (rois.shape={tuple(rois.shape)})")
    if n_rois and (int(roi_indices.min()) < 0 or int(roi_indices.max()) >= n_images):
        raise ValueError(f"{fname}: roi_indices must lie in [0, {n_images}) (x.shape={tuple(x.shape)}), got values "
                         f"in [{int(roi_indices.min())}, {int(roi_indices.max())}]")
    channels, groups = x.shape[1], group_size * group_size
    if out_c is None:
        if channels % groups:
            raise ValueError(f"{fname}: x has {channels} channels, not a multiple of group_size**2 = {groups} "
                             f"(x.shape={tuple(x.shape)})")
    elif channels != out_c * groups:
        raise ValueError(f"{fname}: x has {channels} channels but outsize's out_c * group_size**2 = "
                         f"{out_c} * {groups} = {out_c * groups} (x.shape={tuple(x.shape)})")


# --- where each output bin reads ------------------------------------------------------------------

def roi_extent(rois, spatial_scale, axis):
    """Start and length of each RoI along ``axis`` (0: rows, 1: columns) in x's coordinates, in
    float64; the length is at least 0.1."""
    xp = backend.get_array_module(rois)
    rois = rois.astype(numpy.float64)
    start = rois[:, axis] * spatial_scale
    end = rois[:, axis + 2] * spatial_scale
    return start, xp.maximum(end - start, 0.1)


def bin_axis(rois, spatial_scale, axis, out, size):
    """Integer bins along one axis: bin p of RoI r covers [lo, hi) with lo = floor(p L / out + start)
    and hi = ceil((p + 1) L / out + start), clipped to [0, size]. Returns lo, hi (R, out) int64."""
    xp = backend.get_array_module(rois)
    start, length = roi_extent(rois, spatial_scale, axis)
    bin_size = (length / out)[:, None]
    p = xp.arange(out)
    lo = xp.floor(p * bin_size + start[:, None]).astype(numpy.int64)
    hi = xp.ceil((p + 1) * bin_size + start[:, None]).astype(numpy.int64)
    return xp.clip(lo, 0, size), xp.clip(hi, 0, size)


def align_axis(rois, spatial_scale, axis, out, size, sampling_ratio, average):
    """Bilinear sample points along one axis.

    Bin p of RoI r holds g points start + p L / out + (i + .5) (L / out) / g, i < g, with g =
    ``sampling_ratio`` or ceil(L / out). A point outside [-1, size] is dropped; one in [-1, 0) reads
    row 0, one in [size - 1, size] row size - 1. Returns ``idx`` (R, out, S, 2) the two rows (or
    columns) each point interpolates, ``w`` (R, out, S, 2) their weights (0 where a row does not
    exist or the point is dropped; divided by g when ``average``) and ``valid`` (R, out, S).
    """
    xp = backend.get_array_module(rois)
    start, length = roi_extent(rois, spatial_scale, axis)
    bin_size = length / out
    if sampling_ratio is None:
        grid = xp.ceil(bin_size).astype(numpy.int64)
    else:
        grid = xp.full(bin_size.shape, sampling_ratio, numpy.int64)
    i = xp.arange(max(int(grid.max()) if grid.size else 1, 1))
    bin_start = start[:, None] + xp.arange(out) * bin_size[:, None]
    pos = bin_start[:, :, None] + (i + .5) * bin_size[:, None, None] / grid[:, None, None]
    valid = (i < grid[:, None, None]) & ~((pos < -1) | (pos > size))
    low = xp.floor(pos).astype(numpy.int64)
    low = xp.where(low == size, size - 1, low)
    high = low + 1
    pos = xp.where(low <= -1, 0.0, xp.where(high >= size, size - 1.0, pos))
    w_low = high - pos
    w_high = pos - low
    use_low = valid & (w_low > 0) & (low >= 0)
    use_high = valid & (w_high > 0) & (high <= size - 1)
    idx = xp.stack([xp.clip(low, 0, size - 1), xp.clip(high, 0, size - 1)], axis=-1)
    w = xp.stack([xp.where(use_low, w_low, 0.0), xp.where(use_high, w_high, 0.0)], axis=-1)
    if average:
        w = w / grid[:, None, None, None]
    return idx, w, valid


def plane_offsets(roi_indices, out_h, out_w, group_size, plane):
    """Row offset (R, out_h, out_w) in the channel-last source (see ``Taps``) of the (image, gh, gw)
    plane each output bin reads; ``plane`` is the number of positions per plane."""
    xp = backend.get_array_module(roi_indices)
    gh = xp.clip(xp.arange(out_h) * group_size // out_h, 0, group_size - 1)
    gw = xp.clip(xp.arange(out_w) * group_size // out_w, 0, group_size - 1)
    image = roi_indices.astype(numpy.int64)[:, None, None] * group_size
    return ((image + gh[:, None]) * group_size + gw) * plane


# --- the linear map and its adjoint ----------------------------------------------------------------

class Taps:
    """A linear map from x (N, C * G * G, H, W) to y (R, C, out_h, out_w) given by taps.

    x is read channel-last: ``source`` (N * G * G * H * W, C) holds, at row ((n * G + gh) * G + gw)
    * H * W + i * W + j, the C channels (c * G + gh) * G + gw of pixel (i, j) of image n, so that
    every output bin reads whole rows of C values. With ``integral`` the source is x's zero-padded
    integral image (H + 1, W + 1 positions per plane), computed in float64 (exact sums of floats).

    Each tap is (row, col, weight): y[r, c, p, q] += weight * source[offsets[r, p, q] + row * width +
    col, c], the three broadcastable to (R, out_h, out_w) (one pixel for all C channels) or to (R,
    out_h, out_w, C) (a pixel per channel, as max ops choose).
    """

    def __init__(self, offsets, taps, x_shape, group_size, integral=False):
        self.offsets = offsets
        self.taps = taps
        self.x_shape = tuple(x_shape)
        self.group = group_size
        self.integral = integral
        self.width = x_shape[3] + int(integral)

    def _index(self, row, col):
        return self.offsets[(...,) + (None,) * (row.ndim - 3)] + (row * self.width + col)

    def gather(self, x):
        xp = backend.get_array_module(x)
        source = channel_last(integral_image(x) if self.integral else x, self.group)
        channels = source.shape[1]
        shape = self.offsets.shape + (channels,)
        # one output and one work buffer for all taps: fresh pages cost more than the copies
        y = xp.zeros(shape, source.dtype)
        values = xp.empty(shape, source.dtype)
        for row, col, weight in self.taps:
            index = self._index(row, col)
            if index.ndim == 3:
                _take(source, xp.broadcast_to(index, shape[:3]), values, axis=0)
                values *= weight.astype(source.dtype, copy=False)[..., None]
            else:
                _take(source.ravel(), index * channels + xp.arange(channels), values)
                values *= weight.astype(source.dtype, copy=False)
            y += values
        return xp.ascontiguousarray(y.transpose(0, 3, 1, 2)).astype(x.dtype, copy=False)

    def scatter(self, g):
        xp = backend.get_array_module(g)
        n, c, h, w = self.x_shape
        channels = c // (self.group * self.group)
        size = n * self.group * self.group * (h + int(self.integral)) * self.width * channels
        g = g.transpose(0, 2, 3, 1)
        source = xp.zeros(size, numpy.float64)
        for row, col, weight in self.taps:
            index = self._index(row, col)
            if index.ndim == 3:                     # one pixel for all channels
                index, weight = index[..., None], weight[..., None]
            flat = xp.broadcast_to(index * channels + xp.arange(channels), g.shape)
            # bincount sums in float64 whatever g's dtype
            source += xp.bincount(flat.ravel(), weights=(weight * g).ravel(), minlength=size)
        shape = (n, c, h + 1, w + 1) if self.integral else self.x_shape
        gx = channel_first(source.reshape(-1, channels), shape, self.group)
        if self.integral:
            gx = integral_image_adjoint(gx)
        return gx.astype(g.dtype)


def _take(source, index, out, axis=None):
    """``source.take(index, axis)`` into ``out``. The indices are in range by construction: NumPy's
    default mode='raise' would first write into a temporary copy of ``out`` (several times slower)."""
    if backend.get_array_module(source) is numpy:
        numpy.take(source, index, axis=axis, out=out, mode="clip")
    else:
        source.take(index, axis=axis, out=out)


def channel_last(x, group_size):
    """(N, C * G * G, H, W) -> (N * G * G * H * W, C): row ((n * G + gh) * G + gw) * H * W + i * W + j."""
    n, cgg, h, w = x.shape
    channels = cgg // (group_size * group_size)
    planes = x.reshape(n, channels, group_size, group_size, h, w).transpose(0, 2, 3, 4, 5, 1)
    return planes.reshape(-1, channels)


def channel_first(source, shape, group_size):
    """Inverse of ``channel_last``, to ``shape`` (N, C * G * G, H, W)."""
    n, cgg, h, w = shape
    channels = cgg // (group_size * group_size)
    planes = source.reshape(n, group_size, group_size, h, w, channels).transpose(0, 5, 1, 2, 3, 4)
    return planes.reshape(shape)


def integral_image(x):
    """s[n, c, i, j] = sum of x[n, c, :i, :j], shape (N, C, H + 1, W + 1), float64."""
    xp = backend.get_array_module(x)
    n, c, h, w = x.shape
    s = xp.zeros((n, c, h + 1, w + 1), numpy.float64)
    s[:, :, 1:, 1:] = x.astype(numpy.float64).cumsum(axis=2).cumsum(axis=3)
    return s


def integral_image_adjoint(g):
    """Adjoint of ``integral_image``: gx[i, j] = sum of g[i + 1:, j + 1:], shape (N, C, H, W)."""
    g = g[:, :, 1:, 1:]
    return g[:, :, ::-1, ::-1].cumsum(axis=2).cumsum(axis=3)[:, :, ::-1, ::-1]


class TapGather(FunctionNode):
    """Apply a ``Taps`` map to x."""

    def __init__(self, taps):
        self._taps = taps

    def forward(self, inputs):
        return self._taps.gather(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return TapScatter(self._taps).apply(grad_outputs)


class TapScatter(FunctionNode):
    """The adjoint of a ``Taps`` map: output gradients back to x's shape."""

    def __init__(self, taps):
        self._taps = taps

    def forward(self, inputs):
        return self._taps.scatter(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return TapGather(self._taps).apply(grad_outputs)


class PSROIOp(FunctionNode):
    """Base of the four ops: inputs (x, rois, roi_indices); ``_taps(x, rois, roi_indices)`` returns
    (y, taps) with y the output array and taps the linear map whose adjoint gives x's
    gradient (rois and roi_indices get none)."""

    _fname = ""
    _align = False

    def __init__(self, outsize, spatial_scale, group_size, sampling_ratio=None):
        (self._out_c, self._out_h, self._out_w), self._scale, self._group, self._ratio = parse_args(
            self._fname, outsize, spatial_scale, group_size, sampling_ratio, self._align)

    def forward(self, inputs):
        check_inputs(self._fname, inputs, self._out_c, self._group)
        y, self._tap_map = self._taps(*inputs)
        return y,

    def backward(self, indexes, grad_outputs):
        gx, = TapScatter(self._tap_map).apply(grad_outputs)
        return tuple(gx if i == 0 else None for i in indexes)

    def _offsets(self, x, roi_indices, integral=False):
        plane = (x.shape[2] + int(integral)) * (x.shape[3] + int(integral))
        return plane_offsets(roi_indices, self._out_h, self._out_w, self._group, plane)


def max_over_samples(x, offsets, group_size, rows, cols):
    """Max over the bilinear samples of each bin, and the taps of the chosen sample.

    ``rows`` / ``cols``: ``align_axis`` outputs (idx, w, valid) along y and x (one "corner" of
    weight 1 per integer-bin pixel for max pooling). A bin without a valid sample gives -inf (as
    ChainerCV) and no taps. Ties go to the first sample in (row, column) order. Returns y (R, C,
    out_h, out_w) and the taps, shaped (R, out_h, out_w, C).
    """
    xp = backend.get_array_module(x)
    (iy, wy, vy), (ix, wx, vx) = rows, cols
    width = x.shape[3]
    source = channel_last(x, group_size)
    # (R, out_h, out_w, ...) views of the per-axis tables
    iy, wy, vy = iy[:, :, None], wy[:, :, None], vy[:, :, None]
    ix, wx, vx = ix[:, None], wx[:, None], vx[:, None]
    corners = [(a, b) for a in range(iy.shape[-1]) for b in range(ix.shape[-1])]
    best = xp.full(offsets.shape + source.shape[1:], -numpy.inf, x.dtype)
    best_s = xp.zeros(best.shape, numpy.int64)
    best_t = xp.zeros(best.shape, numpy.int64)
    for s in range(iy.shape[3]):
        for t in range(ix.shape[3]):
            value = 0
            for a, b in corners:
                weight = (wy[..., s, a] * wx[..., t, b]).astype(x.dtype)
                value = value + weight[..., None] * source[offsets + iy[..., s, a] * width + ix[..., t, b]]
            better = (vy[..., s] & vx[..., t])[..., None] & (value > best)
            best = xp.where(better, value, best)
            best_s = xp.where(better, s, best_s)
            best_t = xp.where(better, t, best_t)
    found = best > -numpy.inf
    taps = []
    for a, b in corners:
        row = _pick(iy[..., a], best_s)
        col = _pick(ix[..., b], best_t)
        weight = xp.where(found, _pick(wy[..., a], best_s) * _pick(wx[..., b], best_t), 0.0)
        taps.append((row, col, weight))
    return xp.ascontiguousarray(best.transpose(0, 3, 1, 2)), taps


def _pick(table, choice):
    """``table`` (R, out_h or 1, out_w or 1, S) read at sample ``choice`` (R, out_h, out_w, C)."""
    xp = backend.get_array_module(table)
    table = xp.broadcast_to(table, choice.shape[:3] + table.shape[3:])
    return xp.take_along_axis(table, choice, axis=3)
