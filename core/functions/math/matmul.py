"""matmul and batch_matmul: matrix products with optional transposes and broadcast batch axes."""
import warnings

import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.utils.type_check import InvalidType


def _contracted(shape, trans, left):
    """Index (negative) of the contracted axis of an operand of ``shape``."""
    if len(shape) == 1:
        return -1 if left else 0
    if left:
        return -2 if trans else -1
    return -1 if trans else -2


def _check_operands(fname, a, b, transa, transb):
    utils.check_float(fname, "a", a)
    utils.check_float(fname, "b", b)
    utils.check_same_dtype(fname, a=a, b=b)
    for name, x in (("a", a), ("b", b)):
        if x.ndim == 0:
            raise InvalidType(None, None, f"{fname}: {name} must have at least one dimension, got shape () "
                                          "(use * to scale by a scalar)")
    ia = _contracted(a.shape, transa, True)
    ib = _contracted(b.shape, transb, False)
    if a.shape[ia] != b.shape[ib]:
        raise InvalidType(None, None, f"{fname}: a.shape[{ia}]={a.shape[ia]} does not match b.shape[{ib}]="
                                      f"{b.shape[ib]} (a.shape={a.shape}, b.shape={b.shape}, "
                                      f"transa={transa}, transb={transb})")
    try:
        numpy.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise InvalidType(None, None, f"{fname}: batch dimensions {a.shape[:-2]} of a and {b.shape[:-2]} of b "
                                      f"do not broadcast (a.shape={a.shape}, b.shape={b.shape})") from None


def _swap_last(x):
    return x.swapaxes(-1, -2) if x.ndim > 1 else x


class MatMul(FunctionNode):
    """``op(a) @ op(b)`` where ``op`` transposes the last two axes when asked (not for 1-D operands)."""

    def __init__(self, transa=False, transb=False):
        self.transa = transa
        self.transb = transb

    def forward(self, inputs):
        a, b = inputs
        _check_operands("matmul", a, b, self.transa, self.transb)
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(a)
        a = _swap_last(a) if self.transa else a
        b = _swap_last(b) if self.transb else b
        return utils.force_array(xp.matmul(a, b)),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.reshape import reshape
        from kusari.functions.array.sum_to import sum_to
        a, b = self.get_retained_inputs()
        gy = grad_outputs[0]
        # Promote 1-D operands to matrices so that one pair of formulas serves every case.
        ta = self.transa and a.ndim > 1
        tb = self.transb and b.ndim > 1
        a2 = reshape(a, (1,) + a.shape) if a.ndim == 1 else a
        b2 = reshape(b, b.shape + (1,)) if b.ndim == 1 else b
        gy_shape = gy.shape
        if a.ndim == 1:
            gy_shape = gy_shape[:-1] + (1,) + gy_shape[-1:] if b.ndim > 1 else gy_shape + (1,)
        if b.ndim == 1:
            gy_shape = gy_shape + (1,)
        gy2 = reshape(gy, gy_shape)
        ret = []
        for i in indexes:
            if i == 0:
                if ta:
                    g = MatMul(tb, True).apply((b2, gy2))[0]
                else:
                    g = MatMul(False, not tb).apply((gy2, b2))[0]
                ret.append(reshape(sum_to(g, a2.shape), a.shape))
            else:
                if tb:
                    g = MatMul(True, ta).apply((gy2, a2))[0]
                else:
                    g = MatMul(not ta, False).apply((a2, gy2))[0]
                ret.append(reshape(sum_to(g, b2.shape), b.shape))
        return tuple(ret)


def matmul(a, b, transa=False, transb=False):
    """Matrix product following ``numpy.matmul``: batch axes broadcast, 1-D operands are vectors.

    ``a``: (..., M, K) (or (..., K, M) with ``transa``), or (K,);
    ``b``: (..., K, N) (or (..., N, K) with ``transb``), or (K,).
    Returns (..., M, N) with the broadcast batch shape; a 1-D operand's axis is dropped.
    ``transa`` / ``transb`` transpose the last two axes and are ignored for 1-D operands.
    Operands of two float dtypes are multiplied in their promoted dtype, as in NumPy and Chainer;
    each gradient comes back in its operand's dtype.
    """
    a, b = utils.promote_floats(a, b)
    return MatMul(transa, transb).apply((a, b))[0]


def batch_matmul(a, b, transa=False, transb=False):
    """Batched matrix product (deprecated in Chainer v3; use ``matmul``).

    ``a``: (B, M, K) or (B, M) taken as B matrices of shape (M, 1); ``b`` likewise (B, K, N) or
    (B, K). ``transa`` / ``transb`` transpose each matrix. Returns (B, M, N).
    """
    warnings.warn("batch_matmul is deprecated; use matmul instead", DeprecationWarning, stacklevel=2)
    from kusari.functions.array.reshape import reshape
    for name, x in (("a", a), ("b", b)):
        if x.ndim not in (2, 3):
            raise ValueError(f"batch_matmul: {name} must be 2- or 3-dimensional (B, M[, N]), "
                             f"got shape {x.shape}")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"batch_matmul: batch sizes differ (a.shape={a.shape}, b.shape={b.shape})")
    a3 = reshape(a, a.shape + (1,)) if a.ndim == 2 else a
    b3 = reshape(b, b.shape + (1,)) if b.ndim == 2 else b
    ia, ib = _contracted(a3.shape, transa, True), _contracted(b3.shape, transb, False)
    if a3.shape[ia] != b3.shape[ib]:
        raise ValueError(f"batch_matmul: the matrices of a (shape {a3.shape[1:]}, transa={transa}) "
                         f"and b (shape {b3.shape[1:]}, transb={transb}) cannot be multiplied "
                         f"(a.shape={a.shape}, b.shape={b.shape})")
    return matmul(a3, b3, transa, transb)
