"""Stride-1 convolution kernels for NumPy: accumulating GEMMs on shifted views instead of im2col.

Every sample is zero-padded onto a grid, and all samples are laid side by side as one
``(C, N * prod(grid))`` matrix. On that flat grid a filter tap is a constant offset, so the
input seen by one tap is a contiguous column range of the matrix. The taps along the last axis
are stacked into the rows once (a ``k_last``-fold copy, against im2col's ``prod(ksize)``-fold),
and the convolution is one GEMM per row of taps on views of that matrix, summed in place by
BLAS (``beta = 1``). Outputs are computed on the whole grid and the valid block is cut out
once; the extra work is the padding border.

The same offsets give the gradients: the weight gradient is one GEMM per row of taps against
the shifted input, and the input gradient (a stride-1 transposed convolution) accumulates each
tap's GEMM into its shifted range. Only ``groups == 1`` and float32/float64 with NumPy's
bundled OpenBLAS (:mod:`kusari.utils.blas`); :func:`pays` says when to use it.
"""
from __future__ import annotations

import itertools

import numpy

from kusari._tuning import SHIFTED_CONV_BLOCK_BYTES as BLOCK_BYTES
from kusari._tuning import SHIFTED_CONV_MIN_CHANNELS as MIN_CHANNELS
from kusari.utils import blas


def _blocks(length, rows, itemsize):
    """``(start, stop)`` column ranges of at most ``BLOCK_BYTES`` of ``rows`` rows each, covering ``length``."""
    width = max(256, BLOCK_BYTES // (rows * itemsize))
    return [(start, min(start + width, length)) for start in range(0, length, width)]


def _prod(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def tap_offsets(ksize, dilate, grid) -> list[int]:
    """Flat offset of each filter tap (in C order over ``ksize``) on a row-major ``grid``."""
    steps = [_prod(grid[a + 1:]) for a in range(len(grid))]
    return [sum(t * d * s for t, d, s in zip(taps, dilate, steps))
            for taps in itertools.product(*(range(k) for k in ksize))]


def pays(x, W, stride, groups, channels) -> bool:
    """Whether the shifted-GEMM kernels apply and beat im2col for ``x`` and ``W``.

    ``channels`` is the smaller of the two channel counts the GEMMs contract or produce.
    """
    return (isinstance(x, numpy.ndarray) and isinstance(W, numpy.ndarray) and groups == 1
            and all(s == 1 for s in stride) and channels >= MIN_CHANNELS
            and x.dtype == W.dtype and blas.gemm_available(x.dtype))


def _to_grid(x, start, grid, tail):
    """``x`` (N, C, d...) as a zero ``(C, N * prod(grid) + tail)`` matrix, each sample at ``start`` of its grid."""
    n, c = x.shape[:2]
    length = n * _prod(grid)
    mat = numpy.zeros((c, length + tail), x.dtype)
    block = tuple(slice(s, s + d) for s, d in zip(start, x.shape[2:]))
    mat[:, :length].reshape((c, n) + tuple(grid))[(slice(None), slice(None)) + block] = x.swapaxes(0, 1)
    return mat


def _from_grid(mat, n, grid, start, size):
    """The block of ``size`` at ``start`` of every sample of a grid matrix, as a contiguous (N, C, size...)."""
    c = mat.shape[0]
    block = tuple(slice(s, s + z) for s, z in zip(start, size))
    view = mat[:, :n * _prod(grid)].reshape((c, n) + tuple(grid))[(slice(None), slice(None)) + block]
    return numpy.ascontiguousarray(view.swapaxes(0, 1))


def _row_patches(x, pad, grid, ksize, dilate):
    """The padded grid of ``x`` with the taps of the last spatial axis stacked into the rows.

    Returns ``(mat, offsets)``: ``mat`` is (C * k_last, N * prod(grid) + tail) with
    ``mat[(c, j), q] = grid_x[c, q + j * dilate_last]``, and ``offsets`` are the flat offsets of
    the taps of the other axes, so that one GEMM per offset covers a whole row of taps with a
    K of ``C * k_last`` instead of ``C``.
    """
    c = x.shape[1]
    offsets = tap_offsets(ksize, dilate, grid)
    outer = offsets[::ksize[-1]]
    xg = _to_grid(x, pad, grid, offsets[-1])
    width = xg.shape[1] - (ksize[-1] - 1) * dilate[-1]
    step = xg.strides[1]
    rows = numpy.lib.stride_tricks.as_strided(xg, (c, ksize[-1], width), (xg.strides[0], step * dilate[-1], step))
    return numpy.ascontiguousarray(rows).reshape(c * ksize[-1], width), outer


def conv_forward(x, W, pad, dilate):
    """Stride-1 convolution without bias: ``x`` (N, C, d...), ``W`` (C_out, C, k...) -> (N, C_out, o...)."""
    n = x.shape[0]
    ksize = W.shape[2:]
    grid = tuple(d + 2 * p for d, p in zip(x.shape[2:], pad))
    length = n * _prod(grid)
    rows, offsets = _row_patches(x, pad, grid, ksize, dilate)
    cout = W.shape[0]
    taps = numpy.ascontiguousarray(W.reshape(cout, W.shape[1], -1, ksize[-1]).transpose(2, 0, 1, 3))
    taps = taps.reshape(len(offsets), cout, -1)  # (outer taps, C_out, C * k_last), rows' order
    y = numpy.empty((cout, length), x.dtype)
    for start, stop in _blocks(length, rows.shape[0] + cout, x.itemsize):
        for t, offset in enumerate(offsets):
            blas.gemm(taps[t], rows[:, offset + start:offset + stop], y[:, start:stop], beta=1.0 if t else 0.0)
    outs = tuple(g - (k - 1) * d for g, k, d in zip(grid, ksize, dilate))
    return _from_grid(y, n, grid, (0,) * len(grid), outs)


def conv_weight_grad(x, gy, ksize, pad, dilate):
    """Gradient of :func:`conv_forward` in ``W``: ``x`` (N, C, d...), ``gy`` (N, C_out, o...) -> (C_out, C, k...)."""
    n, c = x.shape[:2]
    cout = gy.shape[1]
    grid = tuple(d + 2 * p for d, p in zip(x.shape[2:], pad))
    length = n * _prod(grid)
    rows, offsets = _row_patches(x, pad, grid, ksize, dilate)
    g = _to_grid(gy, (0,) * len(grid), grid, 0)  # zero outside the valid outputs, so border rows add nothing
    gw = numpy.empty((len(offsets), cout, rows.shape[0]), x.dtype)
    for b, (start, stop) in enumerate(_blocks(length, rows.shape[0] + cout, x.itemsize)):
        for t, offset in enumerate(offsets):
            blas.gemm(g[:, start:stop], rows[:, offset + start:offset + stop].T, gw[t], beta=1.0 if b else 0.0)
    gw = gw.reshape((len(offsets), cout, c, ksize[-1])).transpose(1, 2, 0, 3)
    return numpy.ascontiguousarray(gw).reshape((cout, c) + tuple(ksize))


def deconv_forward(x, W, pad, outsize, dilate):
    """Stride-1 transposed convolution: ``x`` (N, C_in, d...), ``W`` (C_in, C_out, k...) -> (N, C_out, *outsize).

    ``outsize`` must be the one stride 1 implies: ``d + (k - 1) * dilate - 2 * pad`` per axis.
    """
    n = x.shape[0]
    ksize = W.shape[2:]
    grid = tuple(o + 2 * p for o, p in zip(outsize, pad))
    offsets = tap_offsets(ksize, dilate, grid)
    length = n * _prod(grid)
    g = _to_grid(x, (0,) * len(grid), grid, 0)
    taps = numpy.ascontiguousarray(W.reshape(W.shape[0], W.shape[1], -1).transpose(2, 1, 0))  # (T, C_out, C_in)
    out = numpy.zeros((W.shape[1], length + offsets[-1]), x.dtype)
    for start, stop in _blocks(length, x.shape[1] + W.shape[1], x.itemsize):
        for t, offset in enumerate(offsets):
            blas.gemm(taps[t], g[:, start:stop], out[:, offset + start:offset + stop], beta=1.0)
    return _from_grid(out, n, grid, pad, outsize)
