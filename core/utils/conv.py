"""Convolution arithmetic and array kernels: output sizes, N-d im2col/col2im, the GEMMs of (de)convolution.

Everything here works on plain arrays (NumPy or CuPy, chosen from the input) and is shared by the
differentiable ops in ``kusari.functions.connection`` and ``kusari.functions.pooling``.
Layouts are channels-first: images ``(N, C, d_1, ..., d_n)``, convolution filters
``(C_out, C_in / groups, k_1, ..., k_n)``, patch arrays ``(N, C, k_1, ..., k_n, o_1, ..., o_n)``.
"""
import itertools

from kusari import backend, cudnn, onednn, utils
from kusari.cudnn import convolution as cudnn_convolution
from kusari.onednn import convolution as onednn_convolution
from kusari.utils import conv_shifted


def get_conv_outsize(size: int, k: int, s: int, p: int, cover_all: bool = False, d: int = 1) -> int:
    """Output length of a convolution/pooling window ``k`` (dilation ``d``) with stride ``s``, pad ``p``."""
    dk = k + (k - 1) * (d - 1)
    if cover_all:
        return (size + p * 2 - dk + s - 1) // s + 1
    return (size + p * 2 - dk) // s + 1


def get_deconv_outsize(size: int, k: int, s: int, p: int, cover_all: bool = False, d: int = 1) -> int:
    """Output length of a transposed convolution; inverse of ``get_conv_outsize``."""
    dk = (k - 1) * d + 1
    if cover_all:
        return s * (size - 1) + dk - s + 1 - 2 * p
    return s * (size - 1) + dk - 2 * p


def as_tuple(value, n: int, fname: str = "", argname: str = "") -> tuple:
    """``value`` (an int or a sequence of ``n`` ints) as an ``n``-tuple of ints."""
    if isinstance(value, (tuple, list)):
        if len(value) != n:
            raise ValueError(f"{fname}: {argname} must have {n} entries, got {tuple(value)}")
        return tuple(int(v) for v in value)
    return (int(value),) * n


def as_flags(value, n: int) -> tuple:
    """``value`` (a bool or a sequence of ``n`` bools) as an ``n``-tuple of bools (per-axis ``cover_all``)."""
    if isinstance(value, (tuple, list)):
        return tuple(bool(v) for v in value)
    return (bool(value),) * n


def im2col(img, ksize, stride, pad, pval=0, cover_all=False, dilate=1):
    """Sliding windows of ``img`` as a strided view (no copy unless padding is needed).

    Parameters
    ----------
    img : array of shape (N, C, d_1, ..., d_n)
    ksize, stride, pad, dilate : int or n-tuple of ints
        Window size, step, zero padding on both sides, and spacing between window taps.
    pval : scalar
        Value of the padding (e.g. ``-inf`` for max pooling).
    cover_all : bool or n-tuple of bools
        Add windows (and padding) so that every input element is covered.

    Returns
    -------
    array of shape (N, C, k_1, ..., k_n, o_1, ..., o_n)
        ``col[..., j_1..j_n, i_1..i_n] = padded[..., i*stride + j*dilate]``; a read-only view:
        write to a copy.
    """
    xp = backend.get_array_module(img)
    nd = img.ndim - 2
    ksize, stride, pad, dilate = (as_tuple(v, nd) for v in (ksize, stride, pad, dilate))
    cover_all = as_flags(cover_all, nd)
    outs = tuple(get_conv_outsize(img.shape[2 + i], ksize[i], stride[i], pad[i], cover_all[i],
                                  dilate[i]) for i in range(nd))
    if min(outs, default=1) <= 0:
        raise ValueError(f"im2col: windows of size {ksize} (dilate={dilate}) do not fit the input of "
                         f"spatial shape {img.shape[2:]} padded by {pad}; the output would be {outs}")
    widths = [(0, 0), (0, 0)]
    for i in range(nd):
        reach = (outs[i] - 1) * stride[i] + (ksize[i] - 1) * dilate[i] + 1
        widths.append((pad[i], max(reach - img.shape[2 + i] - pad[i], 0)))
    if any(w != (0, 0) for w in widths):
        img = xp.pad(img, widths, mode="constant", constant_values=pval)
    st = img.strides
    shape = img.shape[:2] + ksize + outs
    strides = (st[:2] + tuple(st[2 + i] * dilate[i] for i in range(nd))
               + tuple(st[2 + i] * stride[i] for i in range(nd)))
    return xp.lib.stride_tricks.as_strided(img, shape, strides)


def col2im(col, stride, pad, outsize, dilate=1):
    """Adjoint of :func:`im2col` (``pval=0``): add every window back into an image.

    Parameters
    ----------
    col : array of shape (N, C, k_1, ..., k_n, o_1, ..., o_n)
    stride, pad, dilate : int or n-tuple of ints
    outsize : n-tuple of ints
        Spatial shape ``(d_1, ..., d_n)`` of the unpadded image.

    Returns
    -------
    array of shape (N, C, d_1, ..., d_n), contiguous.
    """
    xp = backend.get_array_module(col)
    nd = (col.ndim - 2) // 2
    stride, pad, dilate = (as_tuple(v, nd) for v in (stride, pad, dilate))
    ksize = col.shape[2:2 + nd]
    outs = col.shape[2 + nd:]
    padded = tuple(max(outsize[i] + 2 * pad[i], (outs[i] - 1) * stride[i] + (ksize[i] - 1) * dilate[i] + 1)
                   for i in range(nd))
    img = xp.zeros(col.shape[:2] + padded, dtype=col.dtype)
    lead = (slice(None), slice(None))
    # One strided add per kernel tap: windows of one tap never overlap each other.
    for taps in itertools.product(*(range(k) for k in ksize)):
        window = tuple(slice(t * d, t * d + (o - 1) * s + 1, s)
                       for t, d, o, s in zip(taps, dilate, outs, stride))
        img[lead + window] += col[lead + taps]
    crop = tuple(slice(p, p + size) for p, size in zip(pad, outsize))
    return xp.ascontiguousarray(img[lead + crop])


def _patches(x, ksize, stride, pad, cover_all, dilate, groups):
    """Patches of ``x`` as a contiguous (N, groups, C/groups * prod(ksize), prod(out)) array, and ``out``.

    The im2col view is already in (N, C, k..., o...) order, so this is one copy and no transpose;
    every GEMM below then writes its result straight in (N, C, spatial...) order.
    """
    xp = backend.get_array_module(x)
    n, c = x.shape[:2]
    nd = x.ndim - 2
    col = im2col(x, ksize, stride, pad, 0, cover_all, dilate)
    outs = col.shape[2 + nd:]
    mat = xp.ascontiguousarray(col).reshape(n, groups, (c // groups) * utils.size_of_shape(ksize), utils.size_of_shape(outs))
    return mat, outs


def _as_tuples(nd, stride, pad, dilate):
    """``stride``, ``pad`` and ``dilate`` as ``nd``-tuples."""
    return tuple(as_tuple(v, nd) for v in (stride, pad, dilate))


def conv_forward(x, W, stride, pad, cover_all=False, dilate=1, groups: int = 1, b=None):
    """Grouped N-d convolution (cross-correlation), plus the bias ``b`` (C_out,) if given.

    ``x``: (N, C, d...), ``W``: (C_out, C / groups, k...); ``cover_all`` a bool or one per axis.
    Returns (N, C_out, o...), contiguous (channels-last when oneDNN computes it and
    :func:`kusari.onednn.layout.preferred` says so). On the GPU cuDNN computes it when :mod:`kusari.cudnn`
    allows; oneDNN when :mod:`kusari.onednn` allows, else the shifted GEMMs of :mod:`kusari.utils.conv_shifted` or one batched GEMM on im2col.
    """
    nd = x.ndim - 2
    gpu = cudnn.library_for(x, W, b) if backend.is_gpu_array(x) else None
    if gpu is not None:
        y = cudnn_convolution.forward(gpu, x, W, stride, pad, cover_all, dilate, groups)
        if y is not None:
            return y if b is None else _add_bias(y, b)
    lib = onednn.library_for(x, W, b, pays=onednn_convolution.pays(W.shape[2:], as_tuple(stride, nd), x))
    if lib is not None:
        stride, pad, dilate = _as_tuples(nd, stride, pad, dilate)
        outs = tuple(get_conv_outsize(x.shape[2 + i], W.shape[2 + i], stride[i], pad[i],
                                      as_flags(cover_all, nd)[i], dilate[i]) for i in range(nd))
        y = onednn_convolution.forward(lib, x, W, b, stride, pad, dilate, groups, outs)
        if y is not None:
            return y
    if conv_shifted.pays(x, W, as_tuple(stride, nd), groups, min(x.shape[1], W.shape[0])):
        y = conv_shifted.conv_forward(x, W, as_tuple(pad, nd), as_tuple(dilate, nd))
    else:
        xp = backend.get_array_module(x)
        mat, outs = _patches(x, W.shape[2:], stride, pad, cover_all, dilate, groups)
        w = W.reshape(groups, W.shape[0] // groups, mat.shape[2])
        y = xp.matmul(w, mat).reshape((x.shape[0], W.shape[0]) + tuple(outs))
    return y if b is None else _add_bias(y, b)


def _add_bias(y, b):
    y += b.reshape((1, -1) + (1,) * (y.ndim - 2))
    return y


def conv_weight_grad(x, gy, ksize, stride, pad, cover_all=False, dilate=1, groups: int = 1):
    """Gradient of :func:`conv_forward` with respect to ``W``: a GEMM of ``gy`` with the patches of ``x``.

    ``x``: (N, C, d...), ``gy``: (N, C_out, o...). Returns (C_out, C / groups, *ksize).
    """
    nd = x.ndim - 2
    gpu = cudnn.library_for(x, gy) if backend.is_gpu_array(x) else None
    if gpu is not None:
        gW = cudnn_convolution.backward_weights(gpu, x, gy, tuple(ksize), stride, pad, dilate, groups)
        if gW is not None:
            return gW
    lib = onednn.library_for(x, gy, pays=onednn_convolution.pays(ksize, as_tuple(stride, nd), x))
    if lib is not None:
        gW = onednn_convolution.backward_weights(lib, x, gy, tuple(ksize), *_as_tuples(nd, stride, pad, dilate),
                                                 groups)
        if gW is not None:
            return gW
    if conv_shifted.pays(x, gy, as_tuple(stride, nd), groups, min(x.shape[1], gy.shape[1])):
        return conv_shifted.conv_weight_grad(x, gy, tuple(ksize), as_tuple(pad, nd), as_tuple(dilate, nd))
    xp = backend.get_array_module(x)
    mat, _ = _patches(x, ksize, stride, pad, cover_all, dilate, groups)
    n, cout = gy.shape[:2]
    g = gy.reshape(n, groups, cout // groups, mat.shape[3])
    gw = xp.matmul(g, mat.swapaxes(2, 3)).sum(axis=0)  # per-sample GEMMs, then a small sum over N
    return gw.reshape((cout, x.shape[1] // groups) + tuple(ksize))


def _pad_or_crop(x, widths):
    """``x`` with each spatial axis widened (positive) or cut (negative) by ``(low, high)`` widths."""
    xp = backend.get_array_module(x)
    cut = (slice(None), slice(None)) + tuple(slice(max(-lo, 0), x.shape[2 + i] - max(-hi, 0))
                                             for i, (lo, hi) in enumerate(widths))
    x = x[cut]
    grow = ((0, 0), (0, 0)) + tuple((max(lo, 0), max(hi, 0)) for lo, hi in widths)
    if any(w != (0, 0) for w in grow):
        x = xp.pad(x, grow, mode="constant")
    return x


def _deconv_as_conv(x, W, pad, outsize, dilate, groups):
    """Stride-1 transposed convolution as a convolution with the flipped filter (no col2im)."""
    nd = x.ndim - 2
    ksize = W.shape[2:]
    pad, dilate = as_tuple(pad, nd), as_tuple(dilate, nd)
    # y[h] = sum_i x[h + p - i d] W[i] = sum_j x'[h + j d] W[k - 1 - j], x' = x shifted by (k - 1) d - p.
    widths = [((k - 1) * d - p, size + p - length)
              for k, d, p, size, length in zip(ksize, dilate, pad, outsize, x.shape[2:])]
    cin_g, cout_g = W.shape[0] // groups, W.shape[1]
    w = W.reshape((groups, cin_g, cout_g) + tuple(ksize)).swapaxes(1, 2)
    w = w.reshape((groups * cout_g, cin_g) + tuple(ksize))[(Ellipsis,) + (slice(None, None, -1),) * nd]
    return conv_forward(_pad_or_crop(x, widths), w, 1, 0, False, dilate, groups)


def _deconv_columns(x, W, groups):
    """The GEMM of a transposed convolution: (N, C_out, prod(ksize), prod(x spatial)) patch values."""
    xp = backend.get_array_module(x)
    n, cin = x.shape[:2]
    cin_g, cout_g = cin // groups, W.shape[1]
    w = W.reshape(groups, cin_g, -1).swapaxes(1, 2)  # (G, Cout_g * K, Cin_g)
    mat = xp.matmul(w, x.reshape(n, groups, cin_g, -1))  # per-sample GEMMs: (N, G, Cout_g * K, P)
    return mat.reshape(n, groups * cout_g, utils.size_of_shape(W.shape[2:]), -1)


def _deconv_by_col2im(x, W, stride, pad, outsize, dilate, groups):
    """Transposed convolution as one batched GEMM into patches, then :func:`col2im`."""
    col = _deconv_columns(x, W, groups)
    col = col.reshape(col.shape[:2] + tuple(W.shape[2:]) + x.shape[2:])
    return col2im(col, stride, pad, tuple(outsize), dilate)


def _deconv_by_flat_col2im(x, W, pad, outsize, dilate, groups):
    """Stride-1 transposed convolution as a GEMM and a col2im whose adds run over whole images.

    ``x`` is first laid on the grid of the uncropped output (its rows, planes... widened with
    zeros), so the GEMM's result for one filter tap, read as a flat array, is that tap's
    contribution shifted by a constant offset: each tap becomes one contiguous add instead of many
    short strided ones.
    """
    xp = backend.get_array_module(x)
    nd = x.ndim - 2
    n = x.shape[0]
    ins, ksize = x.shape[2:], W.shape[2:]
    pad, dilate = as_tuple(pad, nd), as_tuple(dilate, nd)
    full = tuple(max(i + (k - 1) * d, o + 2 * p)
                 for i, k, d, o, p in zip(ins, ksize, dilate, outsize, pad))
    grid = (ins[0],) + full[1:]
    if grid != tuple(ins):
        wide = xp.zeros(x.shape[:2] + grid, x.dtype)
        wide[(Ellipsis,) + tuple(slice(0, i) for i in ins)] = x
        x = wide
    mat = _deconv_columns(x, W, groups)
    size = mat.shape[3]
    plane = utils.size_of_shape(full[1:])
    # The last tap's zero-filled tail reaches at most one row (one plane of ``full``) past the image.
    out = xp.zeros((n, mat.shape[1], (full[0] + 1) * plane), x.dtype)
    for flat, start in enumerate(conv_shifted.tap_offsets(ksize, dilate, full)):
        out[:, :, start:start + size] += mat[:, :, flat]
    img = out[:, :, :full[0] * plane].reshape((n, mat.shape[1]) + full)
    crop = (slice(None), slice(None)) + tuple(slice(p, p + o) for p, o in zip(pad, outsize))
    return xp.ascontiguousarray(img[crop])


def deconv_forward(x, W, stride, pad, outsize, dilate=1, groups: int = 1):
    """Grouped N-d transposed convolution (the adjoint of :func:`conv_forward` in ``x``), without bias.

    ``x``: (N, C_in, d...), ``W``: (C_in, C_out / groups, k...), ``outsize``: the output's spatial
    shape. Returns (N, C_out, *outsize).

    Equal algorithms: oneDNN's convolution backward-data when :mod:`kusari.onednn` allows; a GEMM
    into ``C_out * prod(x spatial)`` patch values per sample and filter tap, summed back by
    :func:`col2im`; with stride 1, either a convolution with the flipped filter
    (when its patch array, ``C_in * prod(outsize)``, is not the larger one) or the GEMM with
    whole-image adds of :func:`_deconv_by_flat_col2im`.
    """
    nd = x.ndim - 2
    outsize = tuple(outsize)
    stride, pad, dilate = _as_tuples(nd, stride, pad, dilate)
    gpu = cudnn.library_for(x, W) if backend.is_gpu_array(x) else None
    if gpu is not None:
        y = cudnn_convolution.backward_data(gpu, x, W, stride, pad, dilate, groups, outsize)
        if y is not None:
            return y
    lib = onednn.library_for(x, W, pays=onednn_convolution.pays(W.shape[2:], stride, x))
    if lib is not None:
        y = onednn_convolution.backward_data(lib, x, W, stride, pad, dilate, groups, outsize)
        if y is not None:
            return y
    if stride != (1,) * nd:
        return _deconv_by_col2im(x, W, stride, pad, outsize, dilate, groups)
    implied = tuple(i + (k - 1) * d - 2 * p for i, k, d, p in zip(x.shape[2:], W.shape[2:], dilate, pad))
    if outsize == implied and conv_shifted.pays(x, W, stride, groups, min(x.shape[1], W.shape[1])):
        return conv_shifted.deconv_forward(x, W, pad, outsize, dilate)
    if x.shape[1] * utils.size_of_shape(outsize) <= W.shape[1] * groups * utils.size_of_shape(x.shape[2:]):
        return _deconv_as_conv(x, W, pad, outsize, dilate, groups)
    return _deconv_by_flat_col2im(x, W, pad, outsize, dilate, groups)
