"""NumPy's own OpenBLAS through ctypes: GEMM on strided matrices that accumulates into its output.

``numpy.matmul`` always overwrites its output, so a sum of products costs one extra pass over
memory per term. The CPU convolution kernels sum one product per filter tap, so they call BLAS
``?gemm`` with ``beta = 1`` directly, on views of NumPy arrays, without copies.

The library is the OpenBLAS that NumPy's wheels bundle (``scipy_openblas64_``, 64-bit integers).
When NumPy links another BLAS, :func:`gemm_available` is False and callers use NumPy instead.
The same library serves ``numpy.matmul``, so thread limits (``OPENBLAS_NUM_THREADS``,
threadpoolctl) apply to both.
"""
from __future__ import annotations

import ctypes
import functools
import glob
import os

import numpy

_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112
# Symbol name pattern of cblas_?gemm in the libraries NumPy is known to bundle, and their integer type.
_SYMBOLS = (("scipy_cblas_{}gemm64_", ctypes.c_int64), ("cblas_{}gemm64_", ctypes.c_int64))
_PREFIX = {numpy.dtype(numpy.float32): ("s", ctypes.c_float),
           numpy.dtype(numpy.float64): ("d", ctypes.c_double)}


def _candidate_libraries() -> list[str]:
    """The shared libraries NumPy's wheels ship beside the package (Linux, macOS, Windows layouts)."""
    root = os.path.dirname(numpy.__file__)
    found = []
    for folder in (os.path.join(root, os.pardir, "numpy.libs"), os.path.join(root, ".dylibs")):
        found += sorted(glob.glob(os.path.join(folder, "*openblas*")))
    return found


@functools.lru_cache(maxsize=None)
def _routine(dtype: numpy.dtype):
    """The ctypes function for ``cblas_?gemm`` of ``dtype``, or None when NumPy's BLAS has none."""
    if dtype not in _PREFIX:
        return None
    letter, scalar = _PREFIX[dtype]
    for path in _candidate_libraries():
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        for pattern, integer in _SYMBOLS:
            routine = getattr(library, pattern.format(letter), None)
            if routine is None:
                continue
            enum, pointer = ctypes.c_int, ctypes.c_void_p
            routine.argtypes = [enum, enum, enum, integer, integer, integer, scalar, pointer, integer,
                                pointer, integer, scalar, pointer, integer]
            routine.restype = None
            return routine
    return None


def gemm_available(dtype) -> bool:
    """Whether :func:`gemm` can run on ``dtype`` (float32 or float64 with NumPy's bundled OpenBLAS)."""
    return _routine(numpy.dtype(dtype)) is not None


def _layout(name: str, m, itemsize: int):
    """(transpose flag, leading dimension) of a 2-D view whose rows or columns are contiguous."""
    rows, cols = m.strides
    if cols == itemsize and rows % itemsize == 0 and rows >= itemsize * max(m.shape[1], 1):
        return _NO_TRANS, rows // itemsize
    if rows == itemsize and cols % itemsize == 0 and cols >= itemsize * max(m.shape[0], 1):
        return _TRANS, cols // itemsize
    raise ValueError(f"gemm: {name} (shape={m.shape}, strides={m.strides}) needs unit stride along "
                     f"its rows or its columns")


def gemm(a: numpy.ndarray, b: numpy.ndarray, out: numpy.ndarray, beta: float = 0.0) -> None:
    """``out = a @ b + beta * out`` in place, on strided 2-D views.

    Parameters
    ----------
    a : (m, k) array
    b : (k, n) array
    out : (m, n) array with unit column stride; it may be a view into a larger buffer
    beta : float
        0 overwrites ``out`` (whatever it held, NaN included); 1 accumulates into it.

    ``a`` and ``b`` may be transposed views (unit stride along either axis). All three share one
    dtype, float32 or float64, and :func:`gemm_available` must be True for it.
    """
    routine = _routine(out.dtype)
    if routine is None or a.dtype != out.dtype or b.dtype != out.dtype:
        raise TypeError(f"gemm: needs float32 or float64 operands of one dtype with NumPy's bundled "
                        f"OpenBLAS, got a={a.dtype}, b={b.dtype}, out={out.dtype}")
    (m, k), (k2, n) = a.shape, b.shape
    if k2 != k or out.shape != (m, n):
        raise ValueError(f"gemm: shapes do not chain: a={a.shape} @ b={b.shape} into out={out.shape}")
    size = out.itemsize
    trans_a, lda = _layout("a", a, size)
    trans_b, ldb = _layout("b", b, size)
    trans_out, ldc = _layout("out", out, size)
    if trans_out != _NO_TRANS:
        raise ValueError(f"gemm: out (shape={out.shape}, strides={out.strides}) needs unit column stride")
    if m == 0 or n == 0:
        return
    routine(_ROW_MAJOR, trans_a, trans_b, m, n, k, 1.0, a.ctypes.data, lda, b.ctypes.data, ldb,
            beta, out.ctypes.data, ldc)
