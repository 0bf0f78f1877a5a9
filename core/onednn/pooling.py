"""oneDNN max and average pooling on NumPy arrays: N-d windows with stride and padding, forward and backward,
float32, on row-major or channels-last arrays (:mod:`kusari.onednn.layout`; y and gx take x's layout).

The forward also returns what its backward takes (:class:`Saved`): x's layout and, for max pooling,
oneDNN's workspace (where each maximum came from, in its own format). Each function returns None
when oneDNN does not offer the case, and the caller computes with NumPy.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy

from kusari.onednn import layout, primitive
from kusari.onednn.library import Library

_FORWARD_TRAINING = 64
MAX, AVERAGE_INCLUDE_PADDING, AVERAGE_EXCLUDE_PADDING = 511, 767, 1023
ARG_SRC, ARG_DST, ARG_WORKSPACE, ARG_DIFF_SRC, ARG_DIFF_DST = 1, 17, 64, 129, 145
_Q_WORKSPACE = 135


class Saved(NamedTuple):
    """What a pooling's forward leaves for its backward."""
    channels_last: bool
    workspace: numpy.ndarray | None


def _build(kind, lib: Library, algorithm, src, dst, ksize, stride, pad, channels_last) -> primitive.Primitive:
    src_md = primitive.MemoryDesc(lib, src, numpy.float32, channels_last=channels_last)
    dst_md = primitive.MemoryDesc(lib, dst, numpy.float32, channels_last=channels_last)
    attr = primitive.Attr(lib)
    pad_r = [(o - 1) * s + k - i - p for o, s, k, i, p in zip(dst[2:], stride, ksize, src[2:], pad)]
    window = (primitive.dims(stride), primitive.dims(ksize), primitive.dims([0] * len(ksize)),
              primitive.dims(pad), primitive.dims(pad_r))
    pd = primitive.PrimitiveDesc(lib, "dnnl_pooling_forward_primitive_desc_create",
                                 lib.pooling_forward_primitive_desc_create, lib.engine, _FORWARD_TRAINING,
                                 algorithm, src_md.handle, dst_md.handle, *window, attr.handle)
    with_workspace = algorithm == MAX
    if kind == "forward":
        mds = {ARG_SRC: src_md, ARG_DST: dst_md}
    else:
        pd = primitive.PrimitiveDesc(lib, "dnnl_pooling_backward_primitive_desc_create",
                                     lib.pooling_backward_primitive_desc_create, lib.engine, algorithm,
                                     src_md.handle, dst_md.handle, *window, pd.handle, attr.handle)
        mds = {ARG_DIFF_SRC: src_md, ARG_DIFF_DST: dst_md}
    if with_workspace:
        mds[ARG_WORKSPACE] = _Q_WORKSPACE
    return primitive.Primitive(lib, pd, mds)


def _primitive(kind, lib, algorithm, src, dst, ksize, stride, pad, channels_last):
    key = ("pooling", kind, algorithm, src, dst, ksize, stride, pad, channels_last)
    return primitive.CACHE.get(key, lambda: _build(kind, lib, algorithm, src, dst, ksize, stride, pad, channels_last))


def forward(lib, algorithm, x, ksize, stride, pad, outsize):
    """``(y, saved)`` of pooling x (N, C, d...) by ``algorithm`` (``MAX`` or one of the averages)
    to (N, C, *outsize); ``saved`` (:class:`Saved`) is for :func:`backward`. None when oneDNN does not offer it."""
    x = layout.as_given(x)
    channels_last = layout.is_channels_last(x)
    dst = x.shape[:2] + tuple(outsize)
    prim = _primitive("forward", lib, algorithm, x.shape, dst, tuple(ksize), tuple(stride), tuple(pad), channels_last)
    if prim is None:
        return None
    y = layout.empty(dst, numpy.float32, channels_last)
    buffers = {ARG_SRC: x, ARG_DST: y}
    workspace = None
    if algorithm == MAX:
        workspace = buffers[ARG_WORKSPACE] = numpy.empty(prim.sizes[ARG_WORKSPACE], numpy.uint8)
    prim.execute(buffers)
    return y, Saved(channels_last, workspace)


def offers_backward(lib, algorithm, x, outsize, ksize, stride, pad) -> bool:
    """Whether oneDNN has the backward of this pooling of ``x`` (built and cached now if it has)."""
    dst = tuple(x.shape[:2]) + tuple(outsize)
    return _primitive("backward", lib, algorithm, tuple(x.shape), dst, tuple(ksize), tuple(stride), tuple(pad),
                      layout.is_channels_last(x)) is not None


def backward(lib, algorithm, gy, saved, insize, ksize, stride, pad):
    """The gradient of :func:`forward` with respect to x, of shape (N, C, *insize) and x's layout, given
    ``gy`` and the forward's ``saved``; see :func:`offers_backward`."""
    gy = layout.as_layout(gy, saved.channels_last)
    src = gy.shape[:2] + tuple(insize)
    prim = _primitive("backward", lib, algorithm, src, gy.shape, tuple(ksize), tuple(stride), tuple(pad),
                      saved.channels_last)
    gx = layout.empty(src, numpy.float32, saved.channels_last)
    buffers = {ARG_DIFF_SRC: gx, ARG_DIFF_DST: gy}
    if algorithm == MAX:
        buffers[ARG_WORKSPACE] = saved.workspace
    prim.execute(buffers)
    return gx
