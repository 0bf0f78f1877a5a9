"""oneDNN batch normalization on NumPy arrays: training forward (batch statistics), inference forward
(given statistics) and the backward to x, gamma and beta; channels on axis 1, float32. A
channels-last x (:mod:`kusari.onednn.layout`) is normalized in its own layout, without reorders,
and y and gx come out channels-last; a row-major one goes through the blocked layout.

Each function returns None when oneDNN does not offer the case, and the caller computes with NumPy.
"""
from __future__ import annotations

import numpy

from kusari.onednn import layout, primitive
from kusari.onednn.library import Library

_FORWARD_TRAINING, _FORWARD_INFERENCE, _BACKWARD = 64, 96, 128
_USE_GLOBAL_STATS, _USE_SCALE, _USE_SHIFT = 1, 2, 4
ARG_SRC, ARG_DST, ARG_MEAN, ARG_VARIANCE, ARG_SCALE, ARG_SHIFT = 1, 17, 49, 50, 51, 52
ARG_DIFF_SRC, ARG_DIFF_DST, ARG_DIFF_SCALE, ARG_DIFF_SHIFT = 129, 145, 255, 256


# Channel-blocked layouts (16 channels innermost) by rank. For training, oneDNN's AVX-512 kernels on
# these beat its generic kernel on the plain layout by 1.5-2.5x on large images, reorders counted; the
# inference forward (one pass) is faster on the plain layout (0.6-0.96x of blocked with reorders, ResNet-50).
_BLOCKED = {3: 56, 4: 78, 5: 121}


def _build(kind, lib: Library, shape, eps, blocked, channels_last) -> primitive.Plan:
    tag = _BLOCKED[len(shape)] if blocked else None
    data = primitive.MemoryDesc(lib, shape, numpy.float32, tag, channels_last)
    attr = primitive.Attr(lib)
    channel = primitive.MemoryDesc(lib, (shape[1],), numpy.float32)
    flags = _USE_SCALE | _USE_SHIFT | (_USE_GLOBAL_STATS if kind == "inference" else 0)
    prop = {"inference": _FORWARD_INFERENCE}.get(kind, _FORWARD_TRAINING)
    pd = primitive.PrimitiveDesc(lib, "dnnl_batch_normalization_forward_primitive_desc_create",
                                 lib.batch_normalization_forward_primitive_desc_create, lib.engine, prop,
                                 data.handle, data.handle, eps, flags, attr.handle)
    if kind == "backward":
        pd = primitive.PrimitiveDesc(lib, "dnnl_batch_normalization_backward_primitive_desc_create",
                                     lib.batch_normalization_backward_primitive_desc_create, lib.engine,
                                     _BACKWARD, data.handle, data.handle, data.handle, eps, flags, pd.handle,
                                     attr.handle)
        data_args, outputs = (ARG_SRC, ARG_DIFF_DST, ARG_DIFF_SRC), (ARG_DIFF_SRC, ARG_DIFF_SCALE, ARG_DIFF_SHIFT)
        channel_args = (ARG_MEAN, ARG_VARIANCE, ARG_SCALE, ARG_DIFF_SCALE, ARG_DIFF_SHIFT)
    else:
        data_args, outputs = (ARG_SRC, ARG_DST), (ARG_DST,) + ((ARG_MEAN, ARG_VARIANCE) if kind == "training" else ())
        channel_args = (ARG_MEAN, ARG_VARIANCE, ARG_SCALE, ARG_SHIFT)
    prim = primitive.Primitive(lib, pd, {**{arg: data for arg in data_args}, **{arg: channel for arg in channel_args}})
    given = primitive.MemoryDesc(lib, shape, numpy.float32, channels_last=channels_last)
    return primitive.Plan(lib, prim, {arg: given for arg in data_args}, outputs)


def _primitive(kind, lib, shape, eps, channels_last):
    blocked = kind != "inference" and len(shape) in _BLOCKED and not channels_last
    return primitive.CACHE.get(("batch_normalization", kind, shape, eps, channels_last),
                               lambda: _build(kind, lib, shape, eps, blocked, channels_last))


def supports_training(lib, x, eps) -> bool:
    """Whether oneDNN offers both the training forward and the backward for ``x`` (its shape and layout)."""
    channels_last = layout.is_channels_last(x)
    return all(_primitive(kind, lib, x.shape, float(eps), channels_last) is not None
               for kind in ("training", "backward"))


def _channels(*arrays):
    return [numpy.ascontiguousarray(a, numpy.float32) for a in arrays]


def forward_training(lib, x, gamma, beta, eps):
    """``(y, mean, var)``: x (N, C, ...) normalized by its per-channel batch mean and (biased)
    variance, scaled by gamma and shifted by beta (both (C,)); or None."""
    x = layout.as_given(x)
    prim = _primitive("training", lib, x.shape, float(eps), layout.is_channels_last(x))
    if prim is None:
        return None
    gamma, beta = _channels(gamma, beta)
    y = numpy.empty_like(x)
    mean = numpy.empty(x.shape[1], numpy.float32)
    var = numpy.empty(x.shape[1], numpy.float32)
    prim.run({ARG_SRC: x, ARG_DST: y, ARG_MEAN: mean, ARG_VARIANCE: var, ARG_SCALE: gamma, ARG_SHIFT: beta})
    return y, mean, var


def forward_inference(lib, x, gamma, beta, mean, var, eps):
    """``gamma * (x - mean) / sqrt(var + eps) + beta`` per channel of x (N, C, ...); or None."""
    x = layout.as_given(x)
    prim = _primitive("inference", lib, x.shape, float(eps), layout.is_channels_last(x))
    if prim is None:
        return None
    gamma, beta, mean, var = _channels(gamma, beta, mean, var)
    y = numpy.empty_like(x)
    prim.run({ARG_SRC: x, ARG_DST: y, ARG_MEAN: mean, ARG_VARIANCE: var, ARG_SCALE: gamma, ARG_SHIFT: beta})
    return y


def backward(lib, x, gamma, mean, var, gy, eps):
    """``(gx, ggamma, gbeta)``, the gradients of :func:`forward_training` given ``gy`` (brought to x's
    layout); or None."""
    x = layout.as_given(x)
    channels_last = layout.is_channels_last(x)
    gy = layout.as_layout(gy, channels_last)
    prim = _primitive("backward", lib, x.shape, float(eps), channels_last)
    if prim is None:
        return None
    gamma, mean, var = _channels(gamma, mean, var)
    gx = numpy.empty_like(x)
    ggamma = numpy.empty(x.shape[1], numpy.float32)
    gbeta = numpy.empty(x.shape[1], numpy.float32)
    prim.run({ARG_SRC: x, ARG_DIFF_DST: gy, ARG_MEAN: mean, ARG_VARIANCE: var, ARG_SCALE: gamma,
                  ARG_DIFF_SRC: gx, ARG_DIFF_SCALE: ggamma, ARG_DIFF_SHIFT: gbeta})
    return gx, ggamma, gbeta
