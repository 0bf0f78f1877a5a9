"""decov: DeCov penalty on the off-diagonal covariance of hidden activations."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.loss._common import center_columns, check_reduce


class DeCov(FunctionNode):
    def __init__(self, reduce):
        check_reduce("decov", reduce, ("half_squared_sum", "no"))
        self.reduce = reduce

    def forward(self, inputs):
        h, = inputs
        utils.check_float("decov", "h", h)
        utils.check_ndim("decov", "h", h, 2)
        self.retain_inputs((0,))
        xp = backend.get_array_module(h)
        hc = h - h.mean(axis=0, keepdims=True)
        cov = hc.T @ hc * (1.0 / max(len(h), 1))
        self._off_diagonal = 1 - xp.eye(h.shape[1], dtype=h.dtype)
        cov *= self._off_diagonal
        if self.reduce == "no":
            return cov,
        return utils.force_array(xp.vdot(cov, cov) * 0.5),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.transpose import transpose
        from kusari.functions.math.matmul import matmul
        h, = self.get_retained_inputs()
        gy, = grad_outputs
        inv_n = 1.0 / max(h.shape[0], 1)
        hc = center_columns(h)
        if self.reduce == "no":
            gcov = gy * self._off_diagonal * inv_n
        else:
            gcov = matmul(hc, hc, transa=True) * gy * (self._off_diagonal * (inv_n * inv_n))
        return matmul(hc, gcov + transpose(gcov)),


def decov(h, reduce="half_squared_sum"):
    """DeCov loss of ``h`` (https://arxiv.org/abs/1511.06068).

    With C the covariance of the columns of ``h`` (over the batch axis) with its diagonal set
    to 0, returns sum(C**2) / 2.

    Parameters
    ----------
    h : float array of shape (N, M)
    reduce : {'half_squared_sum', 'no'}
        'half_squared_sum' returns a scalar; 'no' returns C, of shape (M, M).
    """
    return DeCov(reduce).apply((h,))[0]
