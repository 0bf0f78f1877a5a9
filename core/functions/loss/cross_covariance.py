"""cross_covariance: penalty on the cross-covariance between two sets of features."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.loss._common import center_columns, check_reduce


class CrossCovariance(FunctionNode):
    def __init__(self, reduce):
        check_reduce("cross_covariance", reduce, ("half_squared_sum", "no"))
        self.reduce = reduce

    def forward(self, inputs):
        y, z = inputs
        utils.check_float("cross_covariance", "y", y)
        utils.check_float("cross_covariance", "z", z)
        utils.check_same_dtype("cross_covariance", y=y, z=z)
        utils.check_ndim("cross_covariance", "y", y, 2)
        utils.check_ndim("cross_covariance", "z", z, 2)
        if y.shape[0] != z.shape[0]:
            raise ValueError(f"cross_covariance: y.shape[0]={y.shape[0]} does not match "
                             f"z.shape[0]={z.shape[0]} (y.shape={y.shape}, z.shape={z.shape})")
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(y)
        yc = y - y.mean(axis=0, keepdims=True)
        zc = z - z.mean(axis=0, keepdims=True)
        cov = yc.T @ zc * (1.0 / max(len(y), 1))
        if self.reduce == "no":
            return cov,
        return utils.force_array(xp.vdot(cov, cov) * 0.5),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.math.matmul import matmul
        y, z = self.get_retained_inputs()
        gy, = grad_outputs
        inv_n = 1.0 / max(y.shape[0], 1)
        yc = center_columns(y)
        zc = center_columns(z)
        if self.reduce == "no":
            gcov = gy * inv_n
        else:
            gcov = matmul(yc, zc, transa=True) * gy * (inv_n * inv_n)
        # The products with centered matrices are already centered, so no mean to subtract.
        return tuple(matmul(zc, gcov, transb=True) if i == 0 else matmul(yc, gcov) for i in indexes)


def cross_covariance(y, z, reduce="half_squared_sum"):
    """Cross-covariance penalty between ``y`` and ``z`` (https://arxiv.org/abs/1412.6583).

    With C = (y - mean(y))^T (z - mean(z)) / N, returns sum(C**2) / 2.

    Parameters
    ----------
    y : float array of shape (N, M)
    z : float array of shape (N, K), same dtype
    reduce : {'half_squared_sum', 'no'}
        'half_squared_sum' returns a scalar; 'no' returns C, of shape (M, K).
    """
    return CrossCovariance(reduce).apply((y, z))[0]
