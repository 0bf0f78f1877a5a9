"""Chainer's ``chainer.utils.conv_nd`` names for the N-d helpers of ``kusari.utils.conv``.

One implementation serves NumPy and CuPy arrays, so the ``_cpu``, ``_gpu`` and plain names are the
same functions: ``im2col_nd(img, ksize, stride, pad, cover_all=False, dilate=1)`` returns
(N, C, k_1, ..., k_n, out_1, ..., out_n); ``col2im_nd(col, stride, pad, dims, dilate=1)`` sums
patches back into (N, C, *dims).
"""
from kusari.utils.conv import col2im, im2col


def as_tuple(x, n: int) -> tuple:
    """``x`` repeated ``n`` times, or ``x`` itself when it is already a tuple/list of length ``n``."""
    if isinstance(x, (tuple, list)):
        if len(x) != n:
            raise ValueError(f"conv_nd.as_tuple: expected {n} values, got {tuple(x)}")
        return tuple(x)
    return (x,) * n


def im2col_nd(img, ksize, stride, pad, cover_all=False, dilate=1, pval=0):
    return im2col(img, ksize, stride, pad, pval=pval, cover_all=cover_all, dilate=dilate)


def im2col_nd_cpu(img, ksize, stride, pad, pval=0, cover_all=False, dilate=1):
    return im2col(img, ksize, stride, pad, pval=pval, cover_all=cover_all, dilate=dilate)


def col2im_nd(col, stride, pad, dims, dilate=1):
    return col2im(col, stride, pad, dims, dilate=dilate)


im2col_nd_gpu = im2col_nd
col2im_nd_cpu = col2im_nd_gpu = col2im_nd
