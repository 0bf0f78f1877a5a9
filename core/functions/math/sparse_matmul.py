"""sparse_matmul: product of a sparse COO matrix (``kusari.utils.sparse.CooMatrix``) and a dense one.

Entries and dense operand of two float dtypes are multiplied in their promoted dtype, as in NumPy and
Chainer (whose tests build these nodes directly, so the promotion lives in the nodes); each gradient is
cast back to its input's dtype.
"""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.utils.sparse import CooMatrix, coo_indices, scatter_add
from kusari.utils.type_check import InvalidType


def _swap(x, trans):
    return x.swapaxes(-1, -2) if trans else x


def _batched(x, batched):
    return x if batched else x[None]


class CooMatMul(FunctionNode):
    """``op(S) @ op(D)`` (transposed when ``transc``) for sparse S with entries ``sp`` and dense D.

    Inputs: ``sp`` ((B,) nnz) and ``dn`` ((B,) K, N); ``row`` / ``col`` / ``sp_shape`` fix S's pattern.
    The output has the promoted dtype of ``sp`` and ``dn``.
    """

    def __init__(self, row, col, sp_shape, sp_order="other", transa=False, transb=False, transc=False,
                 dtype=None):
        # Chainer's signature; sp_order (whether the entries are sorted) is a hint kusari does not need
        if dtype is not None:
            raise TypeError(f"CooMatMul: dtype={dtype!r} is not supported (the output has the inputs' dtype)")
        self._row, self._col, self._sp_shape = row, col, tuple(sp_shape)
        self._transa, self._transb, self._transc = transa, transb, transc

    def forward(self, inputs):
        sp, dn = inputs
        utils.check_float("sparse_matmul", "the sparse data", sp)
        utils.check_float("sparse_matmul", "the dense operand", dn)
        if dn.ndim != sp.ndim + 1:
            raise InvalidType(None, None, f"sparse_matmul: the dense operand must be {sp.ndim + 1}-dimensional to "
                                          f"match a sparse matrix with data of shape {sp.shape}, got shape {dn.shape}")
        if sp.ndim == 2 and dn.shape[0] != sp.shape[0]:
            raise InvalidType(None, None, f"sparse_matmul: batch sizes differ (sparse {sp.shape[0]}, dense "
                                          f"{dn.shape[0]}, dense shape {dn.shape})")
        k_sp = self._sp_shape[0 if self._transa else 1]
        k_dn = dn.shape[-1 if self._transb else -2]
        if k_sp != k_dn:
            raise InvalidType(None, None, f"sparse_matmul: contracted sizes differ: {k_sp} for the sparse matrix "
                                          f"of shape {self._sp_shape} and {k_dn} for the dense operand of shape "
                                          f"{dn.shape}")
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(dn)
        batched = dn.ndim == 3
        rows, cols = (self._col, self._row) if self._transa else (self._row, self._col)
        batch, rows, cols, valid = coo_indices(xp, _batched(rows, batched), _batched(cols, batched))
        b = _batched(_swap(dn, self._transb), batched)
        nb, n = b.shape[0], b.shape[-1]
        # C[r] += v * B[c] for each entry (r, c, v) of op(S).
        contrib = (_batched(sp, batched) * valid)[..., None] * b[batch, cols]
        c = xp.zeros((nb, self._sp_shape[1 if self._transa else 0], n),
                     dtype=numpy.promote_types(sp.dtype, dn.dtype))
        scatter_add(xp, c, (batch, rows), contrib)
        return _swap(c if batched else c[0], self._transc),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.cast import cast
        sp, dn = self.get_retained_inputs()
        gc = grad_outputs[0]
        pattern = (self._row, self._col, self._sp_shape)
        ret = []
        for i in indexes:
            if i == 0:
                g = CooMatMulGradSP(*pattern, self._transc, not self._transb, self._transa)
                ret.append(cast(g.apply((gc, dn))[0], sp.dtype))
            else:
                g = CooMatMul(*pattern, transa=not self._transa, transb=self._transc, transc=self._transb)
                ret.append(cast(g.apply((sp, gc))[0], dn.dtype))
        return tuple(ret)


class CooMatMulGradSP(FunctionNode):
    """The entries of ``op(a) @ op(b)`` at S's pattern (transposed pattern when ``transc``), in the
    promoted dtype of ``a`` and ``b``."""

    def __init__(self, row, col, sp_shape, transa, transb, transc):
        self._row, self._col, self._sp_shape = row, col, tuple(sp_shape)
        self._transa, self._transb, self._transc = transa, transb, transc

    def forward(self, inputs):
        a, b = inputs
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(a)
        batched = a.ndim == 3
        rows, cols = (self._col, self._row) if self._transc else (self._row, self._col)
        batch, rows, cols, valid = coo_indices(xp, _batched(rows, batched), _batched(cols, batched))
        a = _batched(_swap(a, self._transa), batched)
        bt = _batched(_swap(b, not self._transb), batched)
        out = (a[batch, rows] * bt[batch, cols]).sum(axis=-1) * valid
        return utils.force_array(out if batched else out[0], numpy.promote_types(a.dtype, bt.dtype)),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.cast import cast
        a, b = self.get_retained_inputs()
        g_sp = grad_outputs[0]
        pattern = (self._row, self._col, self._sp_shape)
        ret = []
        for i in indexes:
            if i == 0:
                g = CooMatMul(*pattern, transa=self._transc, transb=not self._transb, transc=self._transa)
                ret.append(cast(g.apply((g_sp, b))[0], a.dtype))
            else:
                g = CooMatMul(*pattern, transa=not self._transc, transb=self._transa, transc=not self._transb)
                ret.append(cast(g.apply((g_sp, a))[0], b.dtype))
        return tuple(ret)


def sparse_matmul(a, b, transa=False, transb=False):
    """Product of a sparse and a dense matrix (or batches of them): ``op(a) @ op(b)``.

    Exactly one of ``a``, ``b`` is a ``CooMatrix`` (M, K) holding B matrices or one; the other is
    dense: (B, K, N) or (K, N). ``transa`` / ``transb`` transpose each matrix. Returns the dense
    product (B, M, N) or (M, N); gradients reach the dense operand and the sparse entries. Operands
    of two float dtypes are multiplied in their promoted dtype (as ``matmul``).
    """
    a_sparse, b_sparse = isinstance(a, CooMatrix), isinstance(b, CooMatrix)
    if a_sparse and not b_sparse:
        return CooMatMul(a.row, a.col, a.shape, transa=transa, transb=transb).apply((a.data, b))[0]
    if b_sparse and not a_sparse:
        # a @ S == (S^T @ a^T)^T
        return CooMatMul(b.row, b.col, b.shape, transa=not transb, transb=not transa, transc=True).apply((b.data, a))[0]
    raise InvalidType(None, None, f"sparse_matmul: exactly one of a and b must be a CooMatrix, got "
                                  f"{type(a).__name__} and {type(b).__name__}")
