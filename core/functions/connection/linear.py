"""linear: the fully connected layer ``y = x W^T + b``.

Its three products (y, and the gradients to x and W) each take ``rows * W.size`` multiply-adds. From
:data:`kusari.onednn.gemm.MIN_PRODUCT` on they run on oneDNN's GEMM when :mod:`kusari.onednn` allows
(float32 NumPy arrays); otherwise, and always below that size (where one size test is all they
pay), they are 2-d ``ndarray.dot`` calls: the same BLAS GEMM as ``@`` on large matrices, and a third
of its call overhead on small ones (NumPy's matmul goes through the generalized ufunc machinery).
"""
from kusari import onednn, utils
from kusari.function_node import FunctionNode
from kusari.onednn import gemm as onednn_gemm
from kusari.utils.type_check import InvalidType


def _large_product(a, b, transpose_a=False, transpose_b=False, bias=None):
    """``op(a) @ op(b)`` (+ ``bias`` on every row) of 2-d arrays, op transposing where asked: oneDNN's
    GEMM when it is allowed and pays, else ``ndarray.dot``."""
    m, k = a.shape[::-1] if transpose_a else a.shape
    n = b.shape[0] if transpose_b else b.shape[1]
    lib = onednn.library_for(a, b, bias, pays=onednn_gemm.pays(m, n, k))
    if lib is not None:
        return onednn_gemm.matmul(lib, a, b, transpose_a, transpose_b, bias=bias)
    y = (a.T if transpose_a else a).dot(b.T if transpose_b else b)
    if bias is not None:
        y += bias
    return y


def _grad_data(W, gy, x_shape):
    if gy.ndim != 2 or len(x_shape) != 2:
        return _grad_data(W, gy.reshape(-1, W.shape[0]), (-1, W.shape[1])).reshape(x_shape)
    if gy.shape[0] * W.size < onednn_gemm.MIN_PRODUCT:
        return gy.dot(W)
    return _large_product(gy, W)


def _grad_weight(x, gy, W_shape):
    if gy.ndim != 2 or x.ndim != 2:
        n_out, n_in = W_shape
        return _grad_weight(x.reshape(-1, n_in), gy.reshape(-1, n_out), W_shape)
    if gy.shape[0] * x.shape[1] * gy.shape[1] < onednn_gemm.MIN_PRODUCT:
        return gy.T.dot(x)
    return _large_product(gy, x, transpose_a=True)


def _check_inputs(x, W, b, k):
    """Raise the detailed error for inputs of ``linear`` off its fast path (they may still be valid)."""
    utils.check_float("linear", "x", x)
    utils.check_float("linear", "W", W)
    utils.check_same_dtype("linear", x=x, W=W, b=b)
    utils.check_ndim("linear", "W", W, 2)
    if x.ndim <= k:
        raise InvalidType(None, None, f"linear: x must have more than n_batch_axes={k} axes, got "
                                      f"x.shape={tuple(x.shape)}")
    n_in = utils.size_of_shape(x.shape[k:])
    if n_in != W.shape[1]:
        where = f"x.shape[{k}]={n_in}" if x.ndim == k + 1 else \
            f"x.shape[{k}:]={tuple(x.shape[k:])} ({n_in} features)"
        raise InvalidType(None, None, f"linear: {where} does not match W.shape[1]={W.shape[1]} "
                                      f"(x.shape={tuple(x.shape)}, W.shape={tuple(W.shape)})")
    if b is not None and tuple(b.shape) != (W.shape[0],):
        raise InvalidType(None, None, f"linear: b must have shape ({W.shape[0]},), got b.shape={tuple(b.shape)} "
                                      f"(W.shape={tuple(W.shape)})")


class LinearFunction(FunctionNode):
    def __init__(self, n_batch_axes):
        self._n_batch_axes = n_batch_axes

    def forward(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        k = self._n_batch_axes
        dtype = x.dtype
        if not (dtype.kind == "f" and W.dtype is dtype and W.ndim == 2 and x.ndim == k + 1
                and x.shape[k] == W.shape[1]
                and (b is None or (b.dtype is dtype and b.shape == W.shape[:1]))):
            _check_inputs(x, W, b, k)   # the common case passes one test; this checks the rest in full
        self.retain_inputs((0, 1))
        flat = x.ndim == 2  # the common case needs no reshapes
        rows = x if flat else x.reshape(-1, W.shape[1])
        if rows.shape[0] * W.size < onednn_gemm.MIN_PRODUCT:
            y = rows.dot(W.T)
            if b is not None:
                y += b
        else:
            y = _large_product(rows, W, transpose_b=True, bias=b)
        return (y if flat else y.reshape(x.shape[:k] + (W.shape[0],))),

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        k = self._n_batch_axes
        ret = []
        if 0 in indexes:
            ret.append(LinearGradData(x.shape, k).apply((W, gy))[0])
        if 1 in indexes:
            ret.append(LinearGradWeight(W.shape, k).apply((x, gy))[0])
        if 2 in indexes:
            from kusari.functions.math.sum import sum as _sum
            ret.append(_sum(gy, axis=tuple(range(k))))
        return tuple(ret)

    def backward_arrays(self, indexes, grad_outputs):
        inputs = self.inputs
        x, W = inputs[0].data, inputs[1].data
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(_grad_data(W, gy, x.shape))
        if 1 in indexes:
            ret.append(_grad_weight(x, gy, W.shape))
        if 2 in indexes:
            # What F.sum computes, so both paths agree bit for bit (the sum keeps the output axis).
            ret.append(gy.sum(axis=0) if self._n_batch_axes == 1 else
                       gy.sum(axis=tuple(range(self._n_batch_axes))))
        return tuple(ret)


class LinearGradData(FunctionNode):
    """``gx = gy W`` reshaped to x's shape: the data gradient of ``linear`` (inputs W, gy)."""

    def __init__(self, x_shape, n_batch_axes):
        self._x_shape = x_shape
        self._n_batch_axes = n_batch_axes

    def forward(self, inputs):
        W, gy = inputs
        self.retain_inputs((0, 1))
        return _grad_data(W, gy, self._x_shape),

    def backward(self, indexes, grad_outputs):
        W, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LinearGradWeight(W.shape, self._n_batch_axes).apply((ggx, gy))[0])
        if 1 in indexes:
            ret.append(linear(ggx, W, n_batch_axes=self._n_batch_axes))
        return tuple(ret)


class LinearGradWeight(FunctionNode):
    """``gW = gy^T x`` over all batch rows: the weight gradient of ``linear`` (inputs x, gy)."""

    def __init__(self, W_shape, n_batch_axes):
        self._W_shape = W_shape
        self._n_batch_axes = n_batch_axes

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        return _grad_weight(x, gy, self._W_shape),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LinearGradData(x.shape, self._n_batch_axes).apply((ggW, gy))[0])
        if 1 in indexes:
            ret.append(linear(x, ggW, n_batch_axes=self._n_batch_axes))
        return tuple(ret)


def linear(x, W, b=None, n_batch_axes=1):
    """Fully connected map ``y = x W^T + b`` over the trailing axes of ``x``.

    Parameters
    ----------
    x : Variable or array of shape (B_1, ..., B_k, I_1, ...)
        The first ``n_batch_axes`` axes are batch axes; the rest (``prod = I``) are flattened.
    W : Variable or array of shape (O, I)
        Of any float dtype: it is cast to x's, and its gradient comes back in its own.
    b : Variable or array of shape (O,), optional, of x's dtype
    n_batch_axes : int

    Returns
    -------
    Variable of shape (B_1, ..., B_k, O) and x's dtype.
    """
    if int(n_batch_axes) < 1:
        raise ValueError(f"linear: n_batch_axes must be a positive integer, got {n_batch_axes}")
    if getattr(W, "dtype", None) is not getattr(x, "dtype", None):   # the common case skips a call (~1 us)
        W, = utils.cast_like(x, W)  # W of another float dtype computes in x's; b must match x (Chainer)
    node = LinearFunction(int(n_batch_axes))
    return node.apply((x, W) if b is None else (x, W, b))[0]
