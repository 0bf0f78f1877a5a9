"""oneDNN's single-precision matrix product (``dnnl_sgemm``) on NumPy arrays: the three products of a
linear layer.

On products with few rows, oneDNN's JIT kernels take 0.5 to 0.8 times the time of NumPy's OpenBLAS on
one thread (measured on an AVX-512 Xeon: a batch of 100 through 1000x1000 weights 0.76, an LSTM's
20x650 by 650x2600 0.66, its weight gradient 0.49); on square 256-wide ones the two run the same
schedule (bitwise equal results), and on an AVX2 EPYC NumPy is faster there: Soft Actor-Critic's
256x256 products made its update 5 % slower on oneDNN. So NumPy computes below :data:`MIN_PRODUCT`
multiply-adds, with a side shorter than :data:`MIN_SIDE` (a batch of one, ten classes), or when no
operand has :data:`MIN_OPERAND` elements (2 MB; oneDNN's gains above were all on a weight of 1M
elements or more). The three thresholds are rows of :mod:`kusari._tuning`'s table.
"""
from __future__ import annotations

import numpy

from kusari._tuning import GEMM_MIN_OPERAND as MIN_OPERAND
from kusari._tuning import GEMM_MIN_PRODUCT as MIN_PRODUCT
from kusari._tuning import GEMM_MIN_SIDE as MIN_SIDE
from kusari.onednn.library import Library


def pays(m: int, n: int, k: int) -> bool:
    """Whether oneDNN beats NumPy on an (m, k) by (k, n) product (``use_onednn='auto'``)."""
    return (m * n * k >= MIN_PRODUCT and min(m, n) >= MIN_SIDE
            and max(m * k, k * n, m * n) >= MIN_OPERAND)


def _rows(a):
    """``a`` (2-D float32) and its row stride in elements, when its rows are unit-stride; else a copy."""
    item = a.itemsize
    if a.strides[1] != item or a.strides[0] % item or a.strides[0] < a.shape[1] * item:
        a = numpy.ascontiguousarray(a)
    return a, max(a.strides[0] // item, a.shape[1], 1)


def matmul(lib: Library, a, b, transpose_a: bool = False, transpose_b: bool = False, bias=None) -> numpy.ndarray:
    """``op(a) @ op(b)`` of float32 2-D arrays, op transposing where asked, plus ``bias`` (n,) on every row
    when given: a new (m, n) array."""
    a, lda = _rows(a)
    b, ldb = _rows(b)
    m, k = a.shape[::-1] if transpose_a else a.shape
    n = b.shape[0] if transpose_b else b.shape[1]
    out = numpy.empty((m, n), numpy.float32)
    beta = 0.0
    if bias is not None:
        out[...] = bias  # the product is added to it
        beta = 1.0
    lib.call("dnnl_sgemm", lib.sgemm, b"T" if transpose_a else b"N", b"T" if transpose_b else b"N", m, n, k, 1.0,
             a.ctypes.data, lda, b.ctypes.data, ldb, beta, out.ctypes.data, max(n, 1))
    return out
