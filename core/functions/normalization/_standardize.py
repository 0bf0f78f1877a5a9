"""Standardize: (x - mean) / sqrt(var + eps) over some axes, behind batch, layer and group normalization.

The gradient is a node of its own (``StandardizeGrad``) so the first-order backward is a few fused array
operations, while its backward (needed for double backprop, e.g. gradient penalties) is built from
differentiable ops and from ``StandardizeGrad`` itself, so derivatives of any order are exact.
"""
import numpy

from kusari import backend, utils
from kusari._cuda_kernels import Raw
from kusari.function_node import FunctionNode

# Per-channel mean and biased variance of a contiguous (N, C, S) array in one launch (one block per
# channel, two passes over its N * S values), where CuPy runs mean, subtract, square and mean again.
_STATS = """
extern "C" __global__ void kusari_channel_stats_{T}(const {T}* x, {T}* mean, {T}* var,
                                                    long long n, long long c, long long s) {{
  extern __shared__ unsigned char _buf[];
  {T}* buf = reinterpret_cast<{T}*>(_buf);
  const long long ch = blockIdx.x, count = n * s;
  {T} acc = 0;
  for (long long k = threadIdx.x; k < count; k += blockDim.x)
    acc += x[(k / s) * c * s + ch * s + k % s];
  buf[threadIdx.x] = acc;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {{
    if (threadIdx.x < h) buf[threadIdx.x] += buf[threadIdx.x + h];
    __syncthreads();
  }}
  const {T} mu = buf[0] / ({T})count;
  __syncthreads();
  acc = 0;
  for (long long k = threadIdx.x; k < count; k += blockDim.x) {{
    const {T} d = x[(k / s) * c * s + ch * s + k % s] - mu;
    acc += d * d;
  }}
  buf[threadIdx.x] = acc;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h >>= 1) {{
    if (threadIdx.x < h) buf[threadIdx.x] += buf[threadIdx.x + h];
    __syncthreads();
  }}
  if (threadIdx.x == 0) {{
    mean[ch] = mu;
    var[ch] = buf[0] / ({T})count;
  }}
}}
"""
channel_stats_kernels = {dtype: Raw(f"kusari_channel_stats_{t}", _STATS.format(T=t))
                         for dtype, t in (("float32", "float"), ("float64", "double"))}
_STATS_BLOCK = 256   # a power of two: the tree reduction halves it


def channel_stats(x):
    """Mean and biased variance of a contiguous GPU array ``x`` (N, C, ...) over every axis but 1.

    Returns two arrays (C,) of ``x``'s dtype, float32 or float64, from one kernel launch.
    """
    import cupy
    kernel = channel_stats_kernels[x.dtype.name]
    n, c = x.shape[:2]
    mean, var = cupy.empty(c, x.dtype), cupy.empty(c, x.dtype)
    sizes = (numpy.int64(n), numpy.int64(c), numpy.int64(x.size // max(n * c, 1)))   # the kernel's long longs
    kernel((c,), (_STATS_BLOCK,), (x, mean, var) + sizes,
           shared_mem=_STATS_BLOCK * x.dtype.itemsize)
    return mean, var


def _fused_stats(x, axes) -> bool:
    """Whether :func:`channel_stats` computes the statistics of ``x`` over ``axes``: a non-empty,
    contiguous float32/float64 GPU array reduced over every axis but the channels (axis 1)."""
    return (backend.is_gpu_array(x) and x.ndim >= 2 and x.size > 0 and x.flags.c_contiguous
            and x.dtype.name in channel_stats_kernels and tuple(axes) == (0,) + tuple(range(2, x.ndim)))


def _mean(a, axes):
    """``a.mean(axis=axes, keepdims=True)``, but 0 (not NaN) over an empty reduction: an empty batch."""
    if a.size == 0:
        shape = tuple(1 if i in axes else s for i, s in enumerate(a.shape))
        return backend.get_array_module(a).zeros(shape, a.dtype)
    return a.mean(axis=axes, keepdims=True)


class Standardize(FunctionNode):
    """``y = (x - mean(x)) / sqrt(var(x) + eps)`` with the statistics taken over ``axes``.

    After ``apply``, ``mean`` and ``var`` hold the batch statistics (keepdims shape) for callers
    that update running averages. Over an empty reduction (an empty batch) they are 0, so the
    output is empty and every quantity derived from the statistics stays finite.
    """

    def __init__(self, axes, eps):
        self.axes = axes
        self.eps = float(eps)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        if _fused_stats(x, self.axes):
            shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
            mean, var = channel_stats(x)
            self.mean, self.var = mean.reshape(shape), var.reshape(shape)
            xc = x - self.mean
        else:
            self.mean = _mean(x, self.axes)
            xc = x - self.mean
            self.var = _mean(xc * xc, self.axes)
        self.inv_std = (self.var + self.eps) ** -0.5
        return utils.force_array(xc * self.inv_std),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return StandardizeGrad(self.axes, self.eps, self.mean, self.inv_std).apply(
            (x, grad_outputs[0]))[0],


class StandardizeGrad(FunctionNode):
    """``gx = inv_std * (gy - E[gy] - x_hat * E[gy * x_hat])``, the gradient of ``Standardize``."""

    def __init__(self, axes, eps, mean, inv_std):
        self.axes = axes
        self.eps = eps
        self.mean = mean
        self.inv_std = inv_std

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        x_hat = (x - self.mean) * self.inv_std
        axes = self.axes
        gx = self.inv_std * (gy - _mean(gy, axes) - x_hat * _mean(gy * x_hat, axes))
        return utils.force_array(gx),

    def again(self, x, g):
        """``StandardizeGrad(x, g)`` with these statistics, as a new node (differentiable in x and g)."""
        return StandardizeGrad(self.axes, self.eps, self.mean, self.inv_std).apply((x, g))[0]

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        a, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(self.grad_x(x, gy, a))
        if 1 in indexes:
            # The Jacobian of Standardize is symmetric, so gy's gradient is the same map applied to a.
            ret.append(self.again(x, a))
        return tuple(ret)

    def grad_x(self, x, gy, a):
        """The gradient of ``sum(a * StandardizeGrad(x, gy))`` with respect to ``x`` (Variables in, Variable out).

        x enters through x_hat and through inv_std; both are rebuilt from x differentiably.
        """
        from kusari.functions.math.sum import mean

        def e(v):
            return mean(v, axis=self.axes, keepdims=True)

        xc = x - e(x)
        inv = (e(xc * xc) + self.eps) ** -0.5
        x_hat = xc * inv
        e_gy_xh = e(gy * x_hat)
        e_a_xh = e(a * x_hat)
        g_xhat = -inv * (a * e_gy_xh + gy * e_a_xh)
        g_inv = e(a * gy) - e_a_xh * e_gy_xh - e(a) * e(gy)
        return self.again(x, g_xhat) - inv * inv * g_inv * x_hat
