"""cholesky: the lower-triangular Cholesky factor of a symmetric positive-definite matrix."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.math.inv import check_square, inv
from kusari.functions.math.matmul import matmul


class Cholesky(FunctionNode):
    def forward(self, inputs):
        a = inputs[0]
        check_square("cholesky", a, 2)
        xp = backend.get_array_module(a)
        try:
            y = xp.linalg.cholesky(a)
        except numpy.linalg.LinAlgError:
            raise ValueError(f"cholesky: a is not positive definite (shape {a.shape})") from None
        self.retain_outputs((0,))
        return utils.force_array(y, a.dtype),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.transpose import transpose
        L, = self.get_retained_outputs()
        gL = grad_outputs[0]
        xp = backend.get_array_module(L.array)
        n = L.shape[0]
        # Murray (2016): gA = L^-T Phi(L^T gL) L^-1, Phi keeping the lower triangle with the
        # diagonal halved; symmetrized because only symmetric perturbations of A are meaningful.
        phi = xp.tril(xp.ones((n, n), L.dtype)) - xp.eye(n, dtype=L.dtype) * 0.5
        L_inv = inv(L)
        s = matmul(matmul(L_inv, matmul(L, gL, transa=True) * phi, transa=True), L_inv)
        return (s + transpose(s)) * 0.5,


def cholesky(a):
    """Cholesky factor ``L`` (N, N), lower triangular, with ``L @ L.T == a`` for ``a`` (N, N).

    ``a`` must be symmetric positive definite; its gradient is returned symmetric.
    """
    return Cholesky().apply((a,))[0]
