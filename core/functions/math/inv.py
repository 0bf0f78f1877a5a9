"""inv and batch_inv: the inverse of a square matrix, or of each matrix in a batch."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.math.matmul import matmul
from kusari.utils.type_check import InvalidType


def check_square(fname, a, ndim):
    """Raise unless ``a`` is a float array of ``ndim`` dimensions whose last two are equal."""
    utils.check_float(fname, "a", a)
    utils.check_ndim(fname, "a", a, ndim)
    if a.shape[-1] != a.shape[-2]:
        raise InvalidType(None, None, f"{fname}: a must hold square matrices, got shape {a.shape}")


def linalg_operand(a):
    """``a`` for NumPy's and CuPy's ``linalg``, which have no float16: float16 is computed in float32."""
    return a.astype(numpy.float32) if a.dtype == numpy.float16 else a


class Inv(FunctionNode):
    def __init__(self, fname, ndim):
        self._fname = fname
        self._ndim = ndim

    def forward(self, inputs):
        a = inputs[0]
        check_square(self._fname, a, self._ndim)
        xp = backend.get_array_module(a)
        try:
            y = xp.linalg.inv(linalg_operand(a))
        except numpy.linalg.LinAlgError:
            raise ValueError(f"{self._fname}: a is singular (shape {a.shape})") from None
        self.retain_outputs((0,))
        return utils.force_array(y, a.dtype),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        # d(A^-1) = -A^-1 dA A^-1, so gA = -A^-T gY A^-T
        return -matmul(matmul(y, grad_outputs[0], transa=True), y, transb=True),


def inv(a):
    """Inverse of the square matrix ``a`` (N, N); returns (N, N)."""
    return Inv("inv", 2).apply((a,))[0]


def batch_inv(a):
    """Inverse of each matrix in ``a`` (B, N, N); returns (B, N, N)."""
    return Inv("batch_inv", 3).apply((a,))[0]
