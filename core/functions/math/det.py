"""det and batch_det: the determinant of a square matrix, or of each matrix in a batch."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.math.inv import Inv, check_square, linalg_operand


class Det(FunctionNode):
    def __init__(self, fname, ndim):
        self._fname = fname
        self._ndim = ndim

    def forward(self, inputs):
        a = inputs[0]
        check_square(self._fname, a, self._ndim)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(a)
        return utils.force_array(xp.linalg.det(linalg_operand(a)), a.dtype),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.broadcast import broadcast_to
        from kusari.functions.array.reshape import reshape
        from kusari.functions.array.transpose import transpose
        a, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        # d det(A) = det(A) tr(A^-1 dA), so gA = gy det(A) A^-T
        scale = broadcast_to(reshape(grad_outputs[0] * y, y.shape + (1, 1)), a.shape)
        a_inv = Inv(self._fname, self._ndim).apply((a,))[0]
        axes = tuple(range(a.ndim - 2)) + (a.ndim - 1, a.ndim - 2)
        return scale * transpose(a_inv, axes),


def det(a):
    """Determinant of the square matrix ``a`` (N, N); returns a 0-d array."""
    return Det("det", 2).apply((a,))[0]


def batch_det(a):
    """Determinant of each matrix in ``a`` (B, N, N); returns (B,)."""
    return Det("batch_det", 3).apply((a,))[0]
