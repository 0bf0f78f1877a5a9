"""Machinery shared by the RoI ops: argument checks, per-axis sampling of RoI bins, and two adjoint pairs.

Every RoI op reads, for output bin (p, q) of RoI r, a set of sample points that is separable: a
row sample set along y for each (r, p) and a column sample set along x for each (r, q). An axis is
described by ``idx`` (R, out, G, K) input coordinates, ``w`` (R, out, G, K) their weights (K = 1 for
integer bins, K = 2 for bilinear interpolation) and ``valid`` (R, out, G), which masks samples that
do not exist (bins shorter than G, points outside the image).

* Average ops are linear and separable: y[r] = A[r] @ W[r] @ B[r]^T, where W[r] is the window of
  x[batch[r]] that holds every sample of RoI r and A, B are the axes' weights over that window;
  ``Resample`` / ``ResampleT`` are that map and its adjoint. RoIs are processed in chunks of
  similar window size, so the cost follows the RoIs' sizes, not the feature map's (FPN pools about
  a thousand small RoIs from maps of a few hundred pixels a side).
* Max ops pick one sample per bin; their backward ``PointScatter`` adds each gradient to the (up
  to 4) input elements the chosen sample interpolates, and its adjoint is ``PointGather``.
"""
import numpy

from kusari import backend, utils
from kusari.functions.array._common import add_at
from kusari.function_node import FunctionNode


def _max_int(a) -> int:
    return int(a.max()) if a.size else 0


def _round_half_away(xp, v):
    """Round like C's ``round`` (halves away from zero), as the reference RoI kernels do."""
    return xp.sign(v) * xp.floor(xp.abs(v) + 0.5)


def parse_outsize(fname, outsize):
    pair = tuple(outsize) if isinstance(outsize, (tuple, list)) else (outsize, outsize)
    if len(pair) != 2 or not all(isinstance(o, (int, numpy.integer)) and not isinstance(o, bool) and o > 0
                                 for o in pair):
        raise ValueError(f"{fname}: outsize must be a positive int or a pair of them, got {outsize!r}")
    return int(pair[0]), int(pair[1])


def parse_spatial_scale(fname, spatial_scale):
    if isinstance(spatial_scale, bool) or not isinstance(spatial_scale, (int, float, numpy.number)) \
            or not spatial_scale > 0:
        raise ValueError(f"{fname}: spatial_scale must be a positive number, got {spatial_scale!r}")
    return float(spatial_scale)


def parse_sampling_ratio(fname, sampling_ratio):
    pair = tuple(sampling_ratio) if isinstance(sampling_ratio, (tuple, list)) \
        else (sampling_ratio, sampling_ratio)
    if len(pair) != 2 or not all(
            s is None or (isinstance(s, (int, numpy.integer)) and not isinstance(s, bool) and s >= 1)
            for s in pair):
        raise ValueError(f"{fname}: sampling_ratio must be None, an int >= 1 or a pair of them, "
                         f"got {sampling_ratio!r}")
    return tuple(None if s is None else int(s) for s in pair)


def check_image(fname, x):
    utils.check_float(fname, "x", x)
    utils.check_ndim(fname, "x", x, 4)


def check_batch_indices(fname, argname, indices, n_rois, n_images):
    if tuple(indices.shape) != (n_rois,):
        raise ValueError(f"{fname}: {argname}.shape={tuple(indices.shape)} does not match the "
                         f"number of RoIs ({n_rois},)")
    if n_rois:
        lo, hi = int(indices.min()), int(indices.max())
        if lo < 0 or hi >= n_images:
            raise ValueError(f"{fname}: {argname} must lie in [0, {n_images}) (x.shape[0]={n_images}), "
                             f"got values in [{lo}, {hi}]")


# --- per-axis sampling ------------------------------------------------------------------------

def bin_axis(xp, start, end, out, size, plus_one, average):
    """Integer bins of Fast R-CNN RoI pooling along one axis.

    The RoI [start, end] (image coordinates, rounded) has length ``end - start`` (+1 with
    ``plus_one``), at least 1; bin p covers [floor(p L / out), ceil((p + 1) L / out)) from the RoI
    start, clipped to the image. With ``average`` each element weighs 1 / (elements in its bin).
    """
    s = _round_half_away(xp, start).astype(numpy.int64)
    e = _round_half_away(xp, end).astype(numpy.int64)
    length = xp.maximum(e - s + int(plus_one), 1)[:, None]
    p = xp.arange(out)
    lo = xp.clip(p * length // out + s[:, None], 0, size)
    hi = xp.clip(-(-(p + 1) * length // out) + s[:, None], 0, size)
    counts = hi - lo
    d = xp.arange(max(_max_int(counts), 1))
    idx = xp.minimum(lo[..., None] + d, size - 1)[..., None]
    valid = d < counts[..., None]
    w = xp.ones(idx.shape, numpy.float64)
    if average:
        w = w / xp.maximum(counts, 1)[..., None, None]
    return idx, w, valid


def align_axis(xp, start, end, out, size, sampling_ratio, average):
    """Bilinear sample points of RoIAlign along one axis.

    The RoI length is ``max(end - start, 1)``; bin p holds g points at start + (p + (i + .5) / g) L
    / out, i < g, with g = ``sampling_ratio`` or ceil(L / out). Points beyond [-1, size] are dropped;
    the rest are clamped into the image. With ``average`` weights are divided by g (dropped points
    still count, as in Mask R-CNN).
    """
    length = xp.maximum(end - start, 1.0)
    bin_size = (length / out)[:, None, None]
    if sampling_ratio is None:
        g = xp.ceil(length / out).astype(numpy.int64)
    else:
        g = xp.full(length.shape, sampling_ratio, numpy.int64)
    g = g[:, None, None]
    i = xp.arange(max(_max_int(g), 1))
    pos = start[:, None, None] + bin_size * (xp.arange(out)[:, None] + (i + 0.5) / g)
    valid = (i < g) & (pos >= -1.0) & (pos <= size)
    pos = xp.maximum(pos, 0.0)
    low = xp.floor(pos).astype(numpy.int64)
    edge = low >= size - 1
    low = xp.where(edge, size - 1, low)
    high = xp.where(edge, size - 1, low + 1)
    frac = xp.where(edge, 0.0, pos - low)
    idx = xp.stack([low, high], axis=-1)
    w = xp.stack([1.0 - frac, frac], axis=-1)
    if average:
        w = w / g[..., None]
    return idx, w, valid


def _span(xp, axis, size):
    """(start, length) per RoI of the smallest index range holding its valid samples ((0, 1) if none)."""
    idx, _, valid = axis
    r = idx.shape[0]
    per_roi = utils.size_of_shape(idx.shape[1:])
    live = xp.broadcast_to(valid[..., None], idx.shape).reshape(r, per_roi)
    flat = idx.reshape(r, per_roi)
    lo = xp.where(live, flat, size).min(axis=1, initial=size)
    hi = xp.where(live, flat, -1).max(axis=1, initial=-1)
    empty = hi < 0
    lo = xp.where(empty, 0, lo)
    return lo, xp.where(empty, 1, hi - lo + 1)


def _window_matrix(xp, axis, start, length, dtype):
    """(k, out, length) weights each bin gives the window [start, start + length) of an axis."""
    idx, w, valid = axis
    w = xp.where(valid[..., None], w, 0.0)
    onehot = (idx - start[:, None, None, None])[..., None] == xp.arange(length)
    return (onehot * w[..., None]).sum(axis=(2, 3)).astype(dtype)


# elements of one chunk's gathered windows (k RoIs x window h x window w x channels)
_CHUNK_ELEMENTS = 2 ** 22


def windows(xp, rows, cols, batch, shape, dtype):
    """The RoIs in chunks of similar window size, each ready for ``resample``.

    Returns a list of ``(sel, batch, y0, a, x0, b)``: the RoIs ``sel`` of a chunk, their images,
    window row starts (k,), row weights a (k, out_h, Lh), column starts (k,) and column weights
    b (k, out_w, Lw); each chunk's windows fit in x and hold about ``_CHUNK_ELEMENTS`` elements.
    """
    n, c, h, w = shape
    r = batch.shape[0]
    y0, lh = _span(xp, rows, h)
    x0, lw = _span(xp, cols, w)
    side = xp.maximum(lh, lw)
    order = xp.argsort(side, kind="stable")
    side = backend.to_cpu(side[order])
    chunks = []
    i = 0
    while True:   # once at least, so that no RoI still gives a chunk (of none) with the output's shape
        # side is sorted, so a chunk [i, j) costs at most (j - i) * side[j - 1] ** 2 * c
        cost = (numpy.arange(1, r - i + 1) * side[i:].astype(numpy.float64) ** 2) * c
        j = i + max(1, int(numpy.searchsorted(cost, _CHUNK_ELEMENTS, side="right")))
        sel = order[i:j]
        len_h, len_w = int(lh[sel].max(initial=1)), int(lw[sel].max(initial=1))
        # shift windows that would pass the far border back inside x
        ys = xp.minimum(y0[sel], h - len_h)
        xs = xp.minimum(x0[sel], w - len_w)
        a = _window_matrix(xp, tuple(t[sel] for t in rows), ys, len_h, dtype)
        b = _window_matrix(xp, tuple(t[sel] for t in cols), xs, len_w, dtype)
        chunks.append((sel, batch[sel], ys, a, xs, b))
        if j >= r:
            return chunks
        i = j


# --- the ops' shared bases ------------------------------------------------------------------------

class RoIOp(FunctionNode):
    """Base of the RoI ops; inputs (x, rois, roi_indices), rois as (y_min, x_min, y_max, x_max).

    Subclasses set ``_fname`` and get ``_axes(xp, boxes, shape, average) -> (rows, cols)`` from
    ``BinAxes`` or ``AlignAxes``.
    """

    _fname = ""

    def __init__(self, outsize, spatial_scale, sampling_ratio=None):
        self._outh, self._outw = parse_outsize(self._fname, outsize)
        self._scale = parse_spatial_scale(self._fname, spatial_scale)
        self._sampling_ratio = parse_sampling_ratio(self._fname, sampling_ratio)

    def _parse(self, inputs):
        """(x, boxes scaled to x's coordinates as float64 (R, 4), batch indices (R,))."""
        fname = self._fname
        if len(inputs) != 3:
            raise TypeError(f"{fname}: expected inputs (x, rois, roi_indices), got {len(inputs)} inputs")
        x, rois, roi_indices = inputs
        check_image(fname, x)
        utils.check_float(fname, "rois", rois)
        utils.check_same_dtype(fname, x=x, rois=rois)
        if rois.ndim != 2 or rois.shape[1] != 4:
            raise ValueError(f"{fname}: rois must have shape (R, 4) as (y_min, x_min, y_max, x_max), "
                             f"got {tuple(rois.shape)}")
        if roi_indices.dtype.kind not in "iu":
            raise TypeError(f"{fname}: roi_indices must be an integer array, got dtype {roi_indices.dtype}")
        check_batch_indices(fname, "roi_indices", roi_indices, rois.shape[0], x.shape[0])
        return x, rois.astype(numpy.float64) * self._scale, roi_indices

    def _grad_x(self, indexes, gx):
        return tuple(gx if i == 0 else None for i in indexes)


class BinAxes:
    """RoI pooling's integer bins (``_plus_one``: Fast R-CNN's inclusive box ends)."""

    _plus_one = False

    @staticmethod
    def _max(xp, x, batch, rows, cols):
        return interval_max(xp, x, batch, rows, cols)

    def _axes(self, xp, boxes, shape, average):
        h, w = shape[2:]
        return (bin_axis(xp, boxes[:, 0], boxes[:, 2], self._outh, h, self._plus_one, average),
                bin_axis(xp, boxes[:, 1], boxes[:, 3], self._outw, w, self._plus_one, average))


class AlignAxes:
    """RoIAlign's bilinear sample points."""

    def _axes(self, xp, boxes, shape, average):
        h, w = shape[2:]
        ratio_h, ratio_w = self._sampling_ratio
        return (align_axis(xp, boxes[:, 0], boxes[:, 2], self._outh, h, ratio_h, average),
                align_axis(xp, boxes[:, 1], boxes[:, 3], self._outw, w, ratio_w, average))


class RoIMax(RoIOp):
    """Max over each bin's samples; an empty bin gives 0 and passes no gradient."""

    @staticmethod
    def _max(xp, x, batch, rows, cols):
        return separable_max(xp, x, batch, rows, cols)

    def forward(self, inputs):
        x, boxes, batch = self._parse(inputs)
        xp = backend.get_array_module(x)
        rows, cols = self._axes(xp, boxes, x.shape, average=False)
        y, self._points, self._weights = self._max(xp, x, batch, rows, cols)
        self._x_shape = x.shape
        return y,

    def backward(self, indexes, grad_outputs):
        gx = PointScatter(self._points, self._weights, self._x_shape).apply(grad_outputs)[0]
        return self._grad_x(indexes, gx)


class RoIAverage(RoIOp):
    """Weighted mean of each bin's samples, as y[r] = A[r] @ window_r(x[batch[r]]) @ B[r]^T."""

    def forward(self, inputs):
        x, boxes, batch = self._parse(inputs)
        xp = backend.get_array_module(x)
        rows, cols = self._axes(xp, boxes, x.shape, average=True)
        self._chunks = windows(xp, rows, cols, batch, x.shape, x.dtype)
        return resample(x, self._chunks),

    def backward(self, indexes, grad_outputs):
        gx = ResampleT(self._chunks, self.inputs[0].shape).apply(grad_outputs)[0]
        return self._grad_x(indexes, gx)


def separable_max(xp, x, batch, rows, cols):
    """Max over the samples of each bin.

    Returns y (R, C, out_h, out_w) and, for the chosen samples, the flat indices into ``x`` and the
    weights of the input elements they interpolate (both (R, C, out_h, out_w, K)).
    """
    ry, wy, vy = rows
    cx, wx, vx = cols
    n, c, h, w = x.shape
    r, out_h, gh, ky = ry.shape
    out_w, gw, kx = cx.shape[1:]
    xt = x.transpose(0, 2, 3, 1)
    b = batch.reshape(r, 1, 1, 1, 1)
    vals = 0
    for a in range(ky):
        for e in range(kx):
            weight = (wy[:, :, None, :, None, a] * wx[:, None, :, None, :, e]).astype(x.dtype)
            vals = vals + weight[..., None] * xt[b, ry[:, :, None, :, None, a], cx[:, None, :, None, :, e]]
    valid = (vy[:, :, None, :, None] & vx[:, None, :, None, :]).reshape(r, out_h, out_w, gh * gw)
    vals = xp.where(valid[..., None], vals.reshape(r, out_h, out_w, gh * gw, c), x.dtype.type(-numpy.inf))
    best = vals.argmax(axis=3)
    y = xp.take_along_axis(vals, best[:, :, :, None], axis=3)[:, :, :, 0]
    empty = ~valid.any(axis=-1)[..., None]
    y = xp.where(empty, x.dtype.type(0), y)

    ri = xp.arange(r)[:, None, None, None]
    rows_at = (ri, xp.arange(out_h)[:, None, None], best // gw)
    cols_at = (ri, xp.arange(out_w)[:, None], best % gw)
    flat = ((batch.reshape(r, 1, 1, 1, 1, 1) * c + xp.arange(c)[:, None, None]) * h
            + ry[rows_at][..., :, None]) * w + cx[cols_at][..., None, :]
    weights = wy[rows_at][..., :, None] * wx[cols_at][..., None, :]
    weights = xp.where(empty[..., None, None], 0.0, weights).astype(x.dtype)
    k = ky * kx
    to_rc = (0, 3, 1, 2, 4)
    return (xp.ascontiguousarray(y.transpose(0, 3, 1, 2)),
            flat.reshape(r, out_h, out_w, c, k).transpose(to_rc),
            weights.reshape(r, out_h, out_w, c, k).transpose(to_rc))


# elements of one channel chunk of interval_max's table (values and indices): bounds its memory
_TABLE_ELEMENTS = 2 ** 24


def interval_max(xp, x, batch, rows, cols):
    """``separable_max`` for integer bins, whose samples are whole rectangles of ``x``.

    A sparse table holds, for every position, the maximum (and its flat index) over the windows of
    2^a rows by 2^b columns that start there; a bin of h rows and w columns is the union of four such
    windows with 2^a <= h < 2^(a+1), 2^b <= w < 2^(b+1), so four look-ups answer it. Memory is that of
    the table, built in channel chunks (``_TABLE_ELEMENTS``), not R x bins x samples. Ties go to the
    smallest flat index, the first maximum in the row-major order ``separable_max`` scans.
    """
    n, c, h, w = x.shape
    lo_y, len_y = rows[0][..., 0, 0], rows[2].sum(axis=-1)     # (R, out_h)
    lo_x, len_x = cols[0][..., 0, 0], cols[2].sum(axis=-1)     # (R, out_w)
    level_y, level_x = _floor_log2(xp, len_y), _floor_log2(xp, len_x)
    n_a, n_b = _max_int(level_y) + 1, _max_int(level_x) + 1
    empty = (len_y == 0)[:, :, None] | (len_x == 0)[:, None, :]              # (R, out_h, out_w)
    # the four windows' corners; an empty bin reads (0, 0) and is masked
    y0 = xp.where(len_y > 0, lo_y, 0)
    y1 = xp.where(len_y > 0, lo_y + len_y - (1 << level_y), 0)
    x0 = xp.where(len_x > 0, lo_x, 0)
    x1 = xp.where(len_x > 0, lo_x + len_x - (1 << level_x), 0)
    at = (level_y[:, :, None], level_x[:, None, :], batch[:, None, None])
    corners = [(y0[:, :, None], x0[:, None, :]), (y0[:, :, None], x1[:, None, :]),
               (y1[:, :, None], x0[:, None, :]), (y1[:, :, None], x1[:, None, :])]

    index_dtype = numpy.int32 if x.size < 2 ** 31 else numpy.int64
    xt = x.transpose(0, 2, 3, 1)                                              # (N, H, W, C)
    flat = (((xp.arange(n, dtype=index_dtype)[:, None, None, None] * c + xp.arange(c, dtype=index_dtype)) * h
             + xp.arange(h, dtype=index_dtype)[:, None, None]) * w + xp.arange(w, dtype=index_dtype)[:, None])
    chunk = max(1, _TABLE_ELEMENTS // max(1, n_a * n_b * n * h * w))
    values, indices = [], []
    for start in range(0, c, chunk):
        table_v, table_k = _window_table(xp, xt[..., start:start + chunk], flat[..., start:start + chunk],
                                         n_a, n_b)
        best_v, best_k = table_v[at + corners[0]], table_k[at + corners[0]]   # (R, out_h, out_w, chunk)
        for corner in corners[1:]:
            best_v, best_k = _better(xp, best_v, best_k, table_v[at + corner], table_k[at + corner])
        values.append(best_v)
        indices.append(best_k)
    best_v = values[0] if len(values) == 1 else xp.concatenate(values, axis=-1)
    best_k = indices[0] if len(indices) == 1 else xp.concatenate(indices, axis=-1)
    y = xp.where(empty[..., None], x.dtype.type(0), best_v).transpose(0, 3, 1, 2)
    weights = xp.broadcast_to(xp.where(empty, 0, 1).astype(x.dtype)[:, None, :, :, None], y.shape + (1,))
    return xp.ascontiguousarray(y), best_k.transpose(0, 3, 1, 2)[..., None], weights


def _floor_log2(xp, lengths):
    """floor(log2(length)) of positive integers, exactly (0 for 0)."""
    _, exponent = xp.frexp(xp.maximum(lengths, 1).astype(numpy.float64))
    return (exponent - 1).astype(numpy.int64)


def _better(xp, value, index, other_value, other_index):
    """The larger of two (value, index) candidates, the smaller index on a tie."""
    take = (other_value > value) | ((other_value == value) & (other_index < index))
    return xp.where(take, other_value, value), xp.where(take, other_index, index)


def _window_table(xp, xt, flat, n_a, n_b):
    """(n_a, n_b, N, H, W, C) maxima of ``xt`` (N, H, W, C) and their ``flat`` indices over the windows of
    2^a x 2^b elements starting at each position (positions whose window leaves the map keep a smaller one,
    never read)."""
    shape = (n_a, n_b) + xt.shape
    table_v, table_k = xp.empty(shape, xt.dtype), xp.empty(shape, flat.dtype)
    table_v[0, 0], table_k[0, 0] = xt, flat
    for a in range(n_a):
        if a:
            step = 1 << (a - 1)
            table_v[a, 0], table_k[a, 0] = table_v[a - 1, 0], table_k[a - 1, 0]
            v, k = _better(xp, table_v[a - 1, 0, :, :-step], table_k[a - 1, 0, :, :-step],
                           table_v[a - 1, 0, :, step:], table_k[a - 1, 0, :, step:])
            table_v[a, 0, :, :-step], table_k[a, 0, :, :-step] = v, k
        for b in range(1, n_b):
            step = 1 << (b - 1)
            table_v[a, b], table_k[a, b] = table_v[a, b - 1], table_k[a, b - 1]
            v, k = _better(xp, table_v[a, b - 1, :, :, :-step], table_k[a, b - 1, :, :, :-step],
                           table_v[a, b - 1, :, :, step:], table_k[a, b - 1, :, :, step:])
            table_v[a, b, :, :, :-step], table_k[a, b, :, :, :-step] = v, k
    return table_v, table_k


def _window_positions(xp, y0, x0, len_h, len_w):
    return y0[:, None] + xp.arange(len_h), x0[:, None] + xp.arange(len_w)


def resample(x, chunks):
    """y[r] = a[r] @ window_r(x) @ b[r]^T for the RoIs of ``chunks`` (see ``windows``); (R, C, out_h, out_w)."""
    xp = backend.get_array_module(x)
    c = x.shape[1]
    r = sum(len(chunk[0]) for chunk in chunks)
    out_h, out_w = chunks[0][3].shape[1], chunks[0][5].shape[1]
    xt = xp.ascontiguousarray(x.transpose(0, 2, 3, 1))   # gathering whole channel rows is faster
    y = xp.empty((r, out_h, out_w, c), x.dtype)
    for sel, batch, y0, a, x0, b in chunks:
        k, _, len_h = a.shape
        len_w = b.shape[2]
        rows, cols = _window_positions(xp, y0, x0, len_h, len_w)
        crop = xt[batch[:, None, None], rows[:, :, None], cols[:, None, :]]        # (k, Lh, Lw, C)
        t = xp.matmul(a, crop.reshape(k, len_h, len_w * c)).reshape(k, out_h, len_w, c)
        y[sel] = xp.matmul(b[:, None], t)
    return xp.ascontiguousarray(y.transpose(0, 3, 1, 2))


def resample_t(g, chunks, x_shape):
    """Adjoint of ``resample``: each a[r]^T @ g[r] @ b[r] added into its window; shaped like x."""
    xp = backend.get_array_module(g)
    n, c, h, w = x_shape
    gx = xp.zeros((n * h * w, c), g.dtype)
    gt = g.transpose(0, 2, 3, 1)
    for sel, batch, y0, a, x0, b in chunks:
        k, out_h, len_h = a.shape
        len_w = b.shape[2]
        t = xp.matmul(b.transpose(0, 2, 1)[:, None], gt[sel])                     # (k, out_h, Lw, C)
        u = xp.matmul(a.transpose(0, 2, 1), t.reshape(k, out_h, len_w * c))        # (k, Lh, Lw * C)
        rows, cols = _window_positions(xp, y0, x0, len_h, len_w)
        flat = (batch[:, None, None] * h + rows[:, :, None]) * w + cols[:, None, :]
        add_at(gx, flat.ravel(), u.reshape(-1, c))
    return xp.ascontiguousarray(gx.reshape(n, h, w, c).transpose(0, 3, 1, 2))


class Resample(FunctionNode):
    def __init__(self, chunks, x_shape):
        self._args = (chunks, x_shape)

    def forward(self, inputs):
        return resample(inputs[0], self._args[0]),

    def backward(self, indexes, grad_outputs):
        return ResampleT(*self._args).apply(grad_outputs)


class ResampleT(FunctionNode):
    def __init__(self, chunks, x_shape):
        self._args = (chunks, x_shape)

    def forward(self, inputs):
        return resample_t(inputs[0], *self._args),

    def backward(self, indexes, grad_outputs):
        return Resample(*self._args).apply(grad_outputs)


class PointGather(FunctionNode):
    """y = sum_k weights[..., k] * x.ravel()[points[..., k]]."""

    def __init__(self, points, weights, x_shape):
        self._args = (points, weights, x_shape)

    def forward(self, inputs):
        points, weights, _ = self._args
        return utils.force_array((inputs[0].ravel()[points] * weights).sum(axis=-1)),

    def backward(self, indexes, grad_outputs):
        return PointScatter(*self._args).apply(grad_outputs)


class PointScatter(FunctionNode):
    """Adjoint of PointGather: each g[...] * weights[..., k] added at x.ravel()[points[..., k]]."""

    def __init__(self, points, weights, x_shape):
        self._args = (points, weights, x_shape)

    def forward(self, inputs):
        g = inputs[0]
        points, weights, x_shape = self._args
        xp = backend.get_array_module(g)
        # bincount sums in float64 whatever g's dtype; the result is cast back to it.
        gx = xp.bincount(points.ravel(), weights=(g[..., None] * weights).ravel(),
                         minlength=utils.size_of_shape(x_shape))
        return gx.astype(g.dtype).reshape(x_shape),

    def backward(self, indexes, grad_outputs):
        return PointGather(*self._args).apply(grad_outputs)
