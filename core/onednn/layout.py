"""Channels-last arrays: (N, C, d...) in shape and indexing, with memory ordered (N, d..., C).

oneDNN's convolution, batch-normalization and pooling kernels read such memory directly, so a chain
of them passes its activations and gradients on without reorders; NumPy's own ops take these
arrays as any other strided array (elementwise ops keep their layout).
"""
from __future__ import annotations

import numpy

from kusari._tuning import CHANNELS_LAST_MIN_CHANNELS as MIN_CHANNELS


def _memory_order(ndim: int, channels_last: bool = True) -> tuple:
    """The axes of an (N, C, d...) array from the outermost in memory to the innermost."""
    return (0,) + tuple(range(2, ndim)) + (1,) if channels_last else tuple(range(ndim))


def strides(shape, channels_last: bool = True) -> tuple:
    """Element strides of an array of ``shape`` (N, C, d...), channels-last or row-major."""
    order = _memory_order(len(shape), channels_last)
    result, step = [0] * len(shape), 1
    for axis in reversed(order):
        result[axis] = step
        step *= shape[axis]
    return tuple(result)


def is_channels_last(array) -> bool:
    """Whether ``array`` (N, C, d...) is laid out channels-last and not also row-major (the strides of
    axes of length 1, which no index steps along, do not count)."""
    if array.ndim < 3 or array.flags.c_contiguous:
        return False
    return all(n == 1 or s == e * array.itemsize for n, s, e in zip(array.shape, array.strides, strides(array.shape)))


def empty(shape, dtype, channels_last: bool) -> numpy.ndarray:
    """An uninitialized (N, C, d...) array, channels-last when asked, else row-major."""
    if not channels_last:
        return numpy.empty(shape, dtype)
    order = _memory_order(len(shape))
    return numpy.empty([shape[axis] for axis in order], dtype).transpose(numpy.argsort(order))


def as_given(array) -> numpy.ndarray:
    """``array`` itself when channels-last, else row-major (a copy if it is neither)."""
    return array if is_channels_last(array) else numpy.ascontiguousarray(array)


def as_layout(array, channels_last: bool) -> numpy.ndarray:
    """``array`` itself when it has the asked layout (channels-last or row-major), else a copy in it."""
    if is_channels_last(array) if channels_last else array.flags.c_contiguous:
        return array
    out = empty(array.shape, array.dtype, channels_last)
    out[...] = array
    return out


def preferred(shape) -> bool:
    """Whether a convolution writes an array of ``shape`` channels-last: a 2-D image of at least
    :data:`MIN_CHANNELS` channels (``CHANNELS_LAST_MIN_CHANNELS`` of :mod:`kusari._tuning`). All such
    arrays being channels-last, the ops between convolutions (batch normalization, ReLU, residual sums,
    pooling) meet one layout and keep it."""
    return len(shape) == 4 and shape[1] >= MIN_CHANNELS
