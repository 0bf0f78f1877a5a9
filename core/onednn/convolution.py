"""oneDNN convolutions on NumPy arrays: forward, backward-data (which is also the transposed
convolution) and backward-weights, N-d, strided, padded, dilated and grouped, float32.

Each function returns None when oneDNN cannot compute the case (no library, another dtype, a
shape it rejects), and the caller runs its NumPy kernel instead. Arrays are (N, C, d...) at this
interface, row-major or channels-last (:mod:`kusari.onednn.layout`): a 2-D convolution with enough
channels reads and writes channels-last memory directly; otherwise the primitives may choose
blocked layouts inside, reached by reorders.
"""
from __future__ import annotations

import numpy

from kusari import utils
from kusari._tuning import CONV_PLAIN_MIN_PIXELS
from kusari.onednn import layout, primitive
from kusari.onednn.library import Library

_FORWARD_TRAINING = 64
_DIRECT = 1
ARG_SRC, ARG_WEIGHTS, ARG_BIAS, ARG_DST = 1, 33, 41, 17
ARG_DIFF_SRC, ARG_DIFF_WEIGHTS, ARG_DIFF_DST = 129, 161, 145
_Q_SRC, _Q_DIFF_SRC, _Q_WEIGHTS, _Q_DIFF_WEIGHTS, _Q_DST, _Q_DIFF_DST = 129, 130, 131, 132, 133, 134


class _Geometry:
    """A convolution's shapes and its oneDNN parameters (dilation counted from 0, explicit right padding)."""

    def __init__(self, src, weights, dst, stride, pad, dilate, groups, channels_last):
        self.src, self.dst = tuple(src), tuple(dst)
        # Grouped filters are (groups, C_out / groups, C_in / groups, k...) to oneDNN: the same bytes.
        self.grouped = (groups, weights[0] // groups) + tuple(weights[1:]) if groups > 1 else tuple(weights)
        self.stride = primitive.dims(stride)
        self.dilate = primitive.dims(d - 1 for d in dilate)
        self.pad_l = primitive.dims(pad)
        self.pad_r = primitive.dims(
            (o - 1) * s + (k - 1) * d + 1 - i - p
            for o, s, k, d, i, p in zip(dst[2:], stride, weights[2:], dilate, src[2:], pad))
        self.channels_last = channels_last
        # A pointwise convolution is a GEMM on the plain layout, faster than the blocked kernels with
        # their reorders on large enough images (kusari._tuning).
        self.plain = (all(k == 1 for k in weights[2:]) and all(v == 1 for v in stride) and not any(pad)
                      and utils.size_of_shape(src[2:]) >= CONV_PLAIN_MIN_PIXELS)

    def any_mds(self, lib):
        """Descriptors of src, weights and dst: the weights' layout is the primitive's choice; src and dst
        are channels-last for a channels-last convolution, plain for a plain-layout one, else its choice."""
        f32 = numpy.float32
        weights = primitive.MemoryDesc(lib, self.grouped, f32, primitive.FORMAT_ANY)
        if self.channels_last:
            return [primitive.MemoryDesc(lib, self.src, f32, channels_last=True), weights,
                    primitive.MemoryDesc(lib, self.dst, f32, channels_last=True)]
        data = None if self.plain else primitive.FORMAT_ANY
        return [primitive.MemoryDesc(lib, self.src, f32, data), weights,
                primitive.MemoryDesc(lib, self.dst, f32, data)]

    def forward_pd(self, lib, prop, bias, attr):
        """The forward primitive descriptor (what backward primitives take as their hint)."""
        src, weights, dst = self.any_mds(lib)
        bias_md = primitive.MemoryDesc(lib, (self.dst[1],), numpy.float32) if bias else None
        return primitive.PrimitiveDesc(
            lib, "dnnl_convolution_forward_primitive_desc_create",
            lib.convolution_forward_primitive_desc_create, lib.engine, prop, _DIRECT,
            src.handle, weights.handle, bias_md.handle if bias_md else None, dst.handle,
            self.stride, self.dilate, self.pad_l, self.pad_r, attr.handle)


def _build(kind, lib: Library, g: _Geometry, bias: bool, layouts) -> primitive.Plan:
    """The Plan of one convolution primitive: ``kind`` is forward, backward_data or backward_weights;
    ``layouts[arg]`` is True for the data arguments given (or written) channels-last."""
    attr = primitive.Attr(lib)
    if kind == "forward":
        pd = g.forward_pd(lib, _FORWARD_TRAINING, bias, attr)
        mds = {ARG_SRC: _Q_SRC, ARG_WEIGHTS: _Q_WEIGHTS, ARG_DST: _Q_DST}
        if bias:
            mds[ARG_BIAS] = primitive.MemoryDesc(lib, (g.dst[1],), numpy.float32)
        shapes, output = {ARG_SRC: g.src, ARG_WEIGHTS: g.grouped, ARG_DST: g.dst}, ARG_DST
    else:
        hint = g.forward_pd(lib, _FORWARD_TRAINING, False, primitive.Attr(lib))
        src, weights, dst = g.any_mds(lib)
        window = (g.stride, g.dilate, g.pad_l, g.pad_r, hint.handle, attr.handle)
        if kind == "backward_data":
            pd = primitive.PrimitiveDesc(lib, "dnnl_convolution_backward_data_primitive_desc_create",
                                         lib.convolution_backward_data_primitive_desc_create, lib.engine,
                                         _DIRECT, src.handle, weights.handle, dst.handle, *window)
            mds = {ARG_DIFF_SRC: _Q_DIFF_SRC, ARG_WEIGHTS: _Q_WEIGHTS, ARG_DIFF_DST: _Q_DIFF_DST}
            shapes, output = {ARG_DIFF_SRC: g.src, ARG_WEIGHTS: g.grouped, ARG_DIFF_DST: g.dst}, ARG_DIFF_SRC
        else:
            pd = primitive.PrimitiveDesc(lib, "dnnl_convolution_backward_weights_primitive_desc_create",
                                         lib.convolution_backward_weights_primitive_desc_create, lib.engine,
                                         _DIRECT, src.handle, weights.handle, None, dst.handle, *window)
            mds = {ARG_SRC: _Q_SRC, ARG_DIFF_WEIGHTS: _Q_DIFF_WEIGHTS, ARG_DIFF_DST: _Q_DIFF_DST}
            shapes = {ARG_SRC: g.src, ARG_DIFF_WEIGHTS: g.grouped, ARG_DIFF_DST: g.dst}
            output = ARG_DIFF_WEIGHTS
    prim = primitive.Primitive(lib, pd, mds)
    given = {arg: primitive.MemoryDesc(lib, shape, numpy.float32, channels_last=layouts.get(arg, False))
             for arg, shape in shapes.items()}
    return primitive.Plan(lib, prim, given, (output,))


def pays(ksize, stride, x) -> bool:
    """Whether oneDNN beats the NumPy kernels (measured on ResNet shapes), for ``use_onednn='auto'``.

    A strided 1x1 convolution reads a fraction of x; NumPy's kernels slice x first, while oneDNN's
    reorder a row-major x whole (3-7x slower on ResNet-20's and ResNet-50's projection shortcuts).
    A channels-last x needs no reorder.
    """
    return layout.is_channels_last(x) or not (all(k == 1 for k in ksize) and any(s > 1 for s in stride))


def _plan(kind, lib, src, weights, dst, stride, pad, dilate, groups, bias=False, layouts=()):
    """The cached Plan; ``layouts`` pairs each data argument with whether it is channels-last, and
    the primitive itself works channels-last when any of them is."""
    key = ("convolution", kind, src, weights, dst, stride, pad, dilate, groups, bias, layouts)
    channels_last = any(flag for _, flag in layouts)
    return primitive.CACHE.get(key, lambda: _build(kind, lib, _Geometry(src, weights, dst, stride, pad, dilate,
                                                                          groups, channels_last), bias, dict(layouts)))


def forward(lib, x, W, b, stride, pad, dilate, groups, outsize):
    """``conv(x, W) + b`` of shape (N, C_out, *outsize) (the bias fused into the primitive), or None.

    The result is channels-last when :func:`kusari.onednn.layout.preferred` says so.
    """
    x, W = layout.as_given(x), numpy.ascontiguousarray(W)
    dst = (x.shape[0], W.shape[0]) + tuple(outsize)
    channels_last = layout.preferred(dst)
    layouts = ((ARG_SRC, layout.is_channels_last(x)), (ARG_DST, channels_last))
    plan = _plan("forward", lib, x.shape, W.shape, dst, stride, pad, dilate, groups, b is not None, layouts)
    if plan is None:
        return None
    y = layout.empty(dst, numpy.float32, channels_last)
    arrays = {ARG_SRC: x, ARG_WEIGHTS: W, ARG_DST: y}
    if b is not None:
        arrays[ARG_BIAS] = numpy.ascontiguousarray(b)
    plan.run(arrays)
    return y


def backward_data(lib, gy, W, stride, pad, dilate, groups, insize):
    """The gradient of :func:`forward` with respect to x, of shape (N, C_in, *insize), or None.

    With ``gy`` read as an input this is the transposed convolution of ``gy`` by ``W``. The result
    is channels-last when :func:`kusari.onednn.layout.preferred` says so.
    """
    gy, W = layout.as_given(gy), numpy.ascontiguousarray(W)
    src = (gy.shape[0], W.shape[1] * groups) + tuple(insize)
    channels_last = layout.preferred(src)
    layouts = ((ARG_DIFF_DST, layout.is_channels_last(gy)), (ARG_DIFF_SRC, channels_last))
    plan = _plan("backward_data", lib, src, W.shape, gy.shape, stride, pad, dilate, groups, layouts=layouts)
    if plan is None:
        return None
    gx = layout.empty(src, numpy.float32, channels_last)
    plan.run({ARG_DIFF_SRC: gx, ARG_WEIGHTS: W, ARG_DIFF_DST: gy})
    return gx


def backward_weights(lib, x, gy, ksize, stride, pad, dilate, groups):
    """The gradient of :func:`forward` with respect to W, of shape (C_out, C_in / groups, *ksize), or None."""
    x, gy = layout.as_given(x), layout.as_given(gy)
    weights = (gy.shape[1], x.shape[1] // groups) + tuple(ksize)
    layouts = ((ARG_SRC, layout.is_channels_last(x)), (ARG_DIFF_DST, layout.is_channels_last(gy)))
    plan = _plan("backward_weights", lib, x.shape, weights, gy.shape, stride, pad, dilate, groups, layouts=layouts)
    if plan is None:
        return None
    gW = numpy.empty(weights, numpy.float32)
    plan.run({ARG_SRC: x, ARG_DIFF_WEIGHTS: gW, ARG_DIFF_DST: gy})
    return gW
