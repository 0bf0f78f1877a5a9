"""Sliding-window machinery shared by the pooling ops: window geometry, patch views and their adjoints.

A ``Geometry`` describes N-d windows of size ``ksize`` moved by ``stride`` over an input of spatial
shape ``dims`` padded by ``pad`` (plus whatever extra right padding ``outs`` windows need, which is
how ``cover_all`` is realised). Four linear FunctionNodes come in adjoint pairs, so each one's
backward is the other and double backprop comes free:

* ``WindowSum`` (sum over each window, times a coefficient) and ``WindowSpread`` (copy each value
  back over its window, summing overlaps): average pooling and unpooling.
* ``WindowGather`` (pick one element per window by index) and ``WindowScatter`` (put each value at
  its index inside its window): max pooling's backward and upsampling.

With oneDNN (:mod:`kusari.onednn`), max and average pooling run its kernels (:func:`onednn_pooling`),
and their gradient is a ``PoolingGrad`` node running oneDNN's backward, whose own backward is the
NumPy adjoint above.
"""
import itertools

import numpy

from kusari import backend, onednn, utils
from kusari._cuda_kernels import Raw, block_count
from kusari.function_node import FunctionNode
from kusari.onednn import pooling as onednn_pooling_kernels
from kusari.utils.conv import as_tuple, get_conv_outsize

# 2-D max pooling on the GPU, one thread per output (forward) or per input position (backward),
# where window_max and window_scatter run two or three CuPy launches per window offset. The forward
# keeps window_max's rules: padding is -inf, a NaN wins at its first position, the index is the first
# maximal offset, a window wholly in the padding gives 0 and index 0. The backward gathers, so each
# input sums its gradients in a fixed order (deterministic, unlike atomics).
_MAX_POOL = """
extern "C" __global__ void kusari_max_pool_2d_{T}(const {T}* x, {T}* y, long long* idx, long long total,
    long long h, long long w, long long oh, long long ow, long long kh, long long kw,
    long long sh, long long sw, long long ph, long long pw) {{
  const {T} neg_inf = {NEG_INF};
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
       i += (long long)gridDim.x * blockDim.x) {{
    const long long ox = i % ow, oy = (i / ow) % oh;
    const {T}* plane = x + (i / (ow * oh)) * h * w;
    const long long y0 = oy * sh - ph, x0 = ox * sw - pw;
    {T} m = neg_inf;
    bool real = false;
    for (long long t = 0; t < kh * kw; ++t) {{
      const long long iy = y0 + t / kw, ix = x0 + t % kw;
      const bool inside = iy >= 0 && iy < h && ix >= 0 && ix < w;
      const {T} v = inside ? plane[iy * w + ix] : neg_inf;
      real |= inside;
      if (isnan(v) || v > m) m = isnan(m) ? m : v;
    }}
    long long first = kh * kw - 1;
    for (long long t = 0; t < kh * kw - 1; ++t) {{
      const long long iy = y0 + t / kw, ix = x0 + t % kw;
      const bool inside = iy >= 0 && iy < h && ix >= 0 && ix < w;
      const {T} v = inside ? plane[iy * w + ix] : neg_inf;
      if (v == m || isnan(v)) {{ first = t; break; }}
    }}
    y[i] = real ? m : ({T})0;
    idx[i] = real ? first : 0;
  }}
}}
"""
_MAX_POOL_GRAD = """
extern "C" __global__ void kusari_max_pool_2d_grad_{T}(const {T}* g, const long long* idx, {T}* gx,
    long long total, long long h, long long w, long long oh, long long ow, long long kh, long long kw,
    long long sh, long long sw, long long ph, long long pw) {{
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
       i += (long long)gridDim.x * blockDim.x) {{
    const long long ix = i % w, iy = (i / w) % h, nc = i / (w * h);
    const long long oy_lo = max(0LL, (iy + ph - kh + sh) / sh), ox_lo = max(0LL, (ix + pw - kw + sw) / sw);
    const long long oy_hi = min(oh - 1, (iy + ph) / sh), ox_hi = min(ow - 1, (ix + pw) / sw);
    {T} acc = 0;
    for (long long oy = oy_lo; oy <= oy_hi; ++oy)
      for (long long ox = ox_lo; ox <= ox_hi; ++ox) {{
        const long long o = (nc * oh + oy) * ow + ox;
        if (idx[o] == (iy - (oy * sh - ph)) * kw + (ix - (ox * sw - pw))) acc += g[o];
      }}
    gx[i] = acc;
  }}
}}
"""
_NEG_INF = {"float": "__int_as_float(0xff800000)", "double": "__longlong_as_double(0xfff0000000000000LL)"}
max_pool_2d_kernels = {
    d: (Raw(f"kusari_max_pool_2d_{t}", _MAX_POOL.format(T=t, NEG_INF=_NEG_INF[t])),
        Raw(f"kusari_max_pool_2d_grad_{t}", _MAX_POOL_GRAD.format(T=t)))
    for d, t in (("float32", "float"), ("float64", "double"))}


def _fused_2d(x, geom) -> bool:
    """Whether the fused 2-D kernels take ``x``: a float32/float64 GPU array with two spatial axes."""
    return len(geom.dims) == 2 and backend.is_gpu_array(x) and x.dtype.name in max_pool_2d_kernels


def _geometry_args(geom):
    (h, w), (oh, ow), (kh, kw), (sh, sw), (ph, pw) = geom.dims, geom.outs, geom.ksize, geom.stride, geom.pad
    return tuple(numpy.int64(v) for v in (h, w, oh, ow, kh, kw, sh, sw, ph, pw))


def max_pool_2d_gpu(x, geom):
    """``window_max`` of a 2-D GPU ``x`` (N, C, H, W) in one launch: ``(y, indexes)`` (N, C, *outs)."""
    import cupy
    x = cupy.ascontiguousarray(x)
    y = cupy.empty(x.shape[:2] + geom.outs, x.dtype)
    indexes = cupy.empty(y.shape, numpy.int64)
    max_pool_2d_kernels[x.dtype.name][0]((block_count(y.size),), (256,),
                                         (x, y, indexes, numpy.int64(y.size)) + _geometry_args(geom))
    return y, indexes


def max_pool_2d_grad_gpu(g, geom, indexes):
    """``window_scatter`` of a 2-D GPU ``g`` (N, C, *outs) by ``indexes`` in one launch: (N, C, *dims)."""
    import cupy
    g = cupy.ascontiguousarray(g)
    indexes = cupy.ascontiguousarray(indexes, numpy.int64)
    gx = cupy.empty(g.shape[:2] + geom.dims, g.dtype)
    max_pool_2d_kernels[g.dtype.name][1]((block_count(gx.size),), (256,),
                                         (g, indexes, gx, numpy.int64(gx.size)) + _geometry_args(geom))
    return gx


class Geometry:
    """Windows ``ksize`` with ``stride`` and ``pad`` over spatial ``dims``, giving ``outs`` positions."""

    def __init__(self, dims, ksize, stride, pad, outs):
        self.dims = tuple(dims)
        self.ksize = tuple(ksize)
        self.stride = tuple(stride)
        self.pad = tuple(pad)
        self.outs = tuple(outs)

    @property
    def window_size(self) -> int:
        return utils.size_of_shape(self.ksize)

    def _high_pad(self):
        return tuple(max(0, (o - 1) * s + k - d - p)
                     for d, k, s, p, o in zip(self.dims, self.ksize, self.stride, self.pad, self.outs))

    def padding_only(self):
        """Boolean array of shape ``outs``: windows holding no input element; None if there are none."""
        mask = numpy.zeros((), bool)
        for d, k, s, p, o in zip(self.dims, self.ksize, self.stride, self.pad, self.outs):
            starts = numpy.arange(o) * s - p
            mask = numpy.logical_or.outer(mask, (starts >= d) | (starts + k <= 0))
        return mask if mask.any() else None

    def patches(self, x, pad_value=0):
        """A strided view of shape ``(n, c, *outs, *ksize)`` over ``x`` padded with ``pad_value``."""
        xp = backend.get_array_module(x)
        widths = ((0, 0), (0, 0)) + tuple(zip(self.pad, self._high_pad()))
        if any(w != (0, 0) for w in widths):
            x = xp.pad(x, widths, mode="constant", constant_values=pad_value)
        spatial = x.strides[2:]
        shape = x.shape[:2] + self.outs + self.ksize
        strides = x.strides[:2] + tuple(st * s for st, s in zip(spatial, self.stride)) + spatial
        return xp.lib.stride_tricks.as_strided(x, shape=shape, strides=strides)

    def taps(self):
        """``(flat, offset)`` for every position inside a window: its flat index and its N-d offset."""
        return enumerate(itertools.product(*(range(k) for k in self.ksize)))

    def scatter(self, like, values):
        """Sum what ``values(flat, out)`` sends to each in-window position into an ``(n, c, *dims)`` array.

        ``values(flat, out)`` gives an array shaped like ``like`` (n, c, *outs): what every window
        adds to its element at flat in-window index ``flat``; it may write it into ``out`` (a view
        of that shape, or None) and return ``out``. One strided write per window position and no
        window-sized temporaries; the adjoint of reading ``patches(x)[..., *offset]``.
        """
        xp = backend.get_array_module(like)
        padded_dims = tuple(p + d + h for p, d, h in zip(self.pad, self.dims, self._high_pad()))
        lead = (slice(None), slice(None))
        if self._tiles(padded_dims):
            # Windows tile the padded input: each element is written once, so no zeros and no adds.
            tiled = xp.empty(like.shape[:2] + sum(zip(self.outs, self.ksize), ()), like.dtype)
            for flat, offset in self.taps():
                target = tiled[lead + sum(((slice(None), o) for o in offset), ())]
                value = values(flat, target)
                if value is not target:
                    target[...] = value
            out = tiled.reshape(like.shape[:2] + padded_dims)
        else:
            out = xp.zeros(like.shape[:2] + padded_dims, like.dtype)
            for flat, offset in self.taps():
                target = lead + tuple(
                    slice(o, o + s * (n - 1) + 1, s) for o, s, n in zip(offset, self.stride, self.outs))
                out[target] += values(flat, None)
        if padded_dims == self.dims:
            return out
        crop = lead + tuple(slice(p, p + d) for p, d in zip(self.pad, self.dims))
        return xp.ascontiguousarray(out[crop])

    def _tiles(self, padded_dims):
        """Whether the windows cover the padded input exactly once (stride == ksize, nothing left over)."""
        return all(s == k and o * k == d
                   for s, k, o, d in zip(self.stride, self.ksize, self.outs, padded_dims))


def window_args(fname, x, nd, ksize, stride, pad):
    """Validate float array ``x`` (``nd`` spatial axes, None: any) and the window arguments.

    Returns ``(ksize, stride, pad)`` as tuples; ``stride`` defaults to ``ksize``.
    """
    utils.check_float(fname, "x", x)
    if nd is not None:
        utils.check_ndim(fname, "x", x, nd + 2)
    elif x.ndim < 3:
        raise ValueError(f"{fname}: x must have at least 3 dimensions (n, c, spatial...), "
                         f"got shape {tuple(x.shape)}")
    nd = x.ndim - 2
    ksize = as_tuple(ksize, nd, fname, "ksize")
    stride = ksize if stride is None else as_tuple(stride, nd, fname, "stride")
    pad = as_tuple(pad, nd, fname, "pad")
    if min(ksize) < 1:
        raise ValueError(f"{fname}: ksize must be positive, got {ksize}")
    if min(stride) < 1:
        raise ValueError(f"{fname}: stride must be positive, got {stride}")
    if min(pad) < 0:
        raise ValueError(f"{fname}: pad must be non-negative, got {pad}")
    return ksize, stride, pad


def pooling_geometry(fname, x, nd, ksize, stride, pad, cover_all):
    """Validate pooling of ``x`` (see ``window_args``) and return its Geometry."""
    ksize, stride, pad = window_args(fname, x, nd, ksize, stride, pad)
    dims = tuple(x.shape[2:])
    outs = tuple(get_conv_outsize(d, k, s, p, cover_all)
                 for d, k, s, p in zip(dims, ksize, stride, pad))
    if min(outs) <= 0:
        raise ValueError(f"{fname}: window ksize={ksize} with stride={stride}, pad={pad} does not fit "
                         f"in x.shape[2:]={dims} (output size {outs})")
    return Geometry(dims, ksize, stride, pad, outs)


def window_sum(x, geom, coeff=None):
    patches = geom.patches(x)
    taps = geom.taps()
    y = patches[(Ellipsis,) + next(taps)[1]].copy()
    for _, offset in taps:
        y += patches[(Ellipsis,) + offset]
    if coeff is not None:
        y *= coeff
    return y


def window_spread(g, geom, coeff=None):
    if coeff is not None:
        g = g * coeff
    return geom.scatter(g, lambda flat, out: g)


def window_gather(x, geom, indexes):
    xp = backend.get_array_module(x)
    col = geom.patches(x).reshape(x.shape[:2] + geom.outs + (-1,))
    return xp.take_along_axis(col, indexes[..., None], axis=-1)[..., 0]


def select(mask, g, out=None):
    """``where(mask, g, 0)`` bit for bit (into ``out`` if given), as a bitwise AND of ``g``'s bits.

    ``where`` with a scalar is several times slower than this on NumPy; the AND keeps every bit of
    the selected values (NaN, -0.0) and gives +0.0 elsewhere, exactly like ``where``.
    """
    xp = backend.get_array_module(g)
    bits = numpy.dtype(f"i{g.dtype.itemsize}")
    keep = mask.astype(bits)
    xp.negative(keep, out=keep)  # 0 or all ones
    if out is None:
        out = xp.empty(g.shape, g.dtype)
    xp.bitwise_and(g.view(bits), keep, out=out.view(bits))
    return out


def window_scatter(g, geom, indexes):
    if _fused_2d(g, geom):
        return max_pool_2d_grad_gpu(g, geom, indexes)
    return geom.scatter(g, lambda flat, out: select(indexes == flat, g, out))


def window_max(x, geom):
    """Max over each window and the flat in-window index of the max (the first one on ties).

    A running maximum over the window offsets, then a pass over them counting, for each window,
    the offsets before its first maximal one: that count is the index. Each offset is a strided
    view, so nothing window-sized is materialized. As with ``argmax``, a NaN wins and its first
    position is the index. Padding never wins; a window lying entirely in the padding gives 0 (its
    index points into the padding, so it passes no gradient).
    """
    if _fused_2d(x, geom):
        return max_pool_2d_gpu(x, geom)
    xp = backend.get_array_module(x)
    patches = geom.patches(x, pad_value=-numpy.inf)
    views = [patches[(Ellipsis,) + offset] for _, offset in geom.taps()]
    y = views[0].copy()
    for v in views[1:]:
        xp.maximum(y, v, out=y)
    has_nan = bool((y != y).any())
    indexes = xp.zeros(y.shape, numpy.intp)
    not_found = xp.ones(y.shape, bool)
    miss = xp.empty(y.shape, bool)
    for v in views[:-1]:  # no offset is maximal before the last one: the index is the last offset
        xp.not_equal(v, y, out=miss)
        if has_nan:
            miss &= v == v
        not_found &= miss
        indexes += not_found
    empty = geom.padding_only()
    if empty is not None:
        y[..., xp.asarray(empty)] = 0
    return y, indexes


class WindowSum(FunctionNode):
    """Sum over each window times ``coeff`` (a scalar or an array of shape ``outs``)."""

    def __init__(self, geom, coeff=None):
        self._geom = geom
        self._coeff = coeff

    def forward(self, inputs):
        return window_sum(inputs[0], self._geom, self._coeff),

    def backward(self, indexes, grad_outputs):
        return WindowSpread(self._geom, self._coeff).apply(grad_outputs)


class WindowSpread(FunctionNode):
    """Each value times ``coeff`` copied over its window; overlapping windows add up."""

    def __init__(self, geom, coeff=None):
        self._geom = geom
        self._coeff = coeff

    def forward(self, inputs):
        return window_spread(inputs[0], self._geom, self._coeff),

    def backward(self, indexes, grad_outputs):
        return WindowSum(self._geom, self._coeff).apply(grad_outputs)


class WindowGather(FunctionNode):
    """The element at flat in-window position ``indexes`` of each window (padding reads as 0)."""

    def __init__(self, geom, indexes):
        self._geom = geom
        self._indexes = indexes

    def forward(self, inputs):
        return window_gather(inputs[0], self._geom, self._indexes),

    def backward(self, indexes, grad_outputs):
        return WindowScatter(self._geom, self._indexes).apply(grad_outputs)


class WindowScatter(FunctionNode):
    """Each value put at flat in-window position ``indexes`` of its window; overlaps add up."""

    def __init__(self, geom, indexes):
        self._geom = geom
        self._indexes = indexes

    def forward(self, inputs):
        return window_scatter(inputs[0], self._geom, self._indexes),

    def backward(self, indexes, grad_outputs):
        return WindowGather(self._geom, self._indexes).apply(grad_outputs)


def onednn_pooling(x, geom, algorithm):
    """``(lib, y, saved)``: pooling ``x`` over ``geom`` by oneDNN's ``algorithm`` (a constant of
    :mod:`kusari.onednn.pooling`), and what its backward needs; None when oneDNN is not to be used,
    or lacks the forward or the backward.

    Windows lying entirely in the padding are left to NumPy, which defines them as 0.
    """
    lib = onednn.library_for(x)
    if lib is None or len(geom.dims) > 3 or geom.padding_only() is not None:
        return None
    kernels = onednn_pooling_kernels
    args = (geom.ksize, geom.stride, geom.pad)
    if not kernels.offers_backward(lib, algorithm, x, geom.outs, *args):
        return None
    result = kernels.forward(lib, algorithm, x, *args, geom.outs)
    return None if result is None else (lib,) + result


class PoolingGrad(FunctionNode):
    """The gradient of a pooling that oneDNN computed: oneDNN's backward of ``gy`` (with what the
    forward saved: its layout, and for max pooling its workspace); its own backward is ``adjoint()``,
    a node of the linear map's adjoint."""

    def __init__(self, lib, geom, algorithm, saved, adjoint):
        self._lib = lib
        self._geom = geom
        self._algorithm = algorithm
        self._saved = saved
        self._adjoint = adjoint

    def forward(self, inputs):
        g = self._geom
        return onednn_pooling_kernels.backward(self._lib, self._algorithm, inputs[0], self._saved, g.dims,
                                               g.ksize, g.stride, g.pad),

    def backward(self, indexes, grad_outputs):
        return self._adjoint().apply(grad_outputs)
