"""batch_normalization and fixed_batch_normalization: normalize by batch or by given channel statistics."""
import warnings

import numpy

from kusari import backend, cudnn, onednn, utils
from kusari.cudnn import batch_normalization as cudnn_bn
from kusari.function_node import FunctionNode
from kusari.functions.normalization._standardize import Standardize, StandardizeGrad
from kusari.onednn import batch_normalization as onednn_bn
from kusari.variable import as_array


def is_mixed16(x, gamma) -> bool:
    """Whether ``x`` is float16 with float32 ``gamma``: mixed precision, computed in float32."""
    return x.dtype == numpy.float16 and gamma.dtype == numpy.float32


def run_promoted(x, gamma, compute):
    """``compute(x)`` on x in the promoted dtype of x and gamma, the result cast back to x's dtype.

    Chainer's rule for the normalizations: the statistics are computed in that promoted dtype (a
    float16 x with float32 parameters, mixed16, in float32), the output has x's dtype. ``compute``
    casts the parameters to its x's dtype (``utils.cast_like``).
    """
    dtype = numpy.promote_types(x.dtype, gamma.dtype)
    if x.dtype == dtype:
        return compute(x)
    from kusari.functions.array.cast import cast
    return cast(compute(cast(x, dtype)), x.dtype)


def _norm_axes(fname, x, gamma, beta, axis):
    """The reduced axes and the shape that broadcasts a ``gamma``-shaped array against ``x``.

    ``axis=None`` reduces axis 0 and every axis after the ones ``gamma`` covers (Chainer's rule).
    ``x`` may have another float dtype than gamma and beta, which share one (see :func:`run_promoted`).
    """
    utils.check_float(fname, "x", x)
    utils.check_float(fname, "gamma", gamma)
    utils.check_same_dtype(fname, gamma=gamma, beta=beta)
    if gamma.shape != beta.shape:
        raise ValueError(f"{fname}: gamma.shape={gamma.shape} does not match beta.shape={beta.shape}")
    if axis is None:
        axes = (0,) + tuple(range(gamma.ndim + 1, x.ndim))
    else:
        axes = utils.normalize_axis(fname, axis, x.ndim)
    key_axes = tuple(i for i in range(x.ndim) if i not in axes)
    key_shape = tuple(x.shape[i] for i in key_axes)
    if key_shape != gamma.shape:
        raise ValueError(f"{fname}: x.shape={x.shape} reduced over axes {axes} leaves {key_shape}, "
                         f"which does not match gamma.shape={gamma.shape}")
    expanded = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    return axes, expanded


def _update_running(running_mean, running_var, mean, var, decay, m):
    """In-place moving averages of statistics over ``m >= 1`` values; the variance scaled by m / (m - 1)."""
    decay = float(decay)
    adjust = m / max(m - 1.0, 1.0)  # m = 1: a zero variance stays zero instead of 0 / 0
    running_mean *= decay
    running_mean += (1.0 - decay) * mean
    running_var *= decay
    running_var += ((1.0 - decay) * adjust) * var


def _check_running(fname, running_mean, running_var, shape):
    """Both running statistics or neither; as arrays of ``shape``."""
    if (running_mean is None) != (running_var is None):
        raise ValueError(f"{fname}: running_mean and running_var must be given together "
                         f"(got running_mean={'None' if running_mean is None else 'an array'}, "
                         f"running_var={'None' if running_var is None else 'an array'})")
    if running_mean is None:
        return None, None
    running_mean = as_array(running_mean)
    running_var = as_array(running_var)
    for name, r in (("running_mean", running_mean), ("running_var", running_var)):
        utils.check_float(fname, name, r)
        if r.shape != shape:
            raise ValueError(f"{fname}: {name}.shape={r.shape} does not match gamma.shape={shape}")
    return running_mean, running_var


class BatchStandardize(Standardize):
    """Standardize with batch statistics, updating the running averages (if given) in ``forward``.

    The update lives in the node so that a replayed static graph performs it every call.
    """

    def __init__(self, axes, eps, running_mean=None, running_var=None, decay=0.9):
        super().__init__(axes, eps)
        self.running_mean = running_mean
        self.running_var = running_var
        self.decay = decay

    def forward(self, inputs):
        out = super().forward(inputs)
        m = inputs[0].size // max(self.mean.size, 1)
        # An empty batch has no statistics to average in (its mean and variance would be NaN).
        if self.running_mean is not None and m > 0:
            shape = self.running_mean.shape
            _update_running(self.running_mean, self.running_var, self.mean.reshape(shape),
                            self.var.reshape(shape), self.decay, m)
        return out


def _warn_single_value(fname, x, axes, stacklevel):
    if all(x.shape[i] == 1 for i in axes):
        warnings.warn(f"{fname}: every reduced axis of x (shape {x.shape}, axes {axes}) has size 1, "
                      "so the output is all beta; is the model in training mode on a single sample?",
                      UserWarning, stacklevel=stacklevel + 1)


def _standardize_batch(fname, x, axes, eps, running_mean=None, running_var=None, decay=0.9):
    """Apply ``BatchStandardize`` over ``axes``; returns (x_hat, the node) so callers can read its statistics."""
    _warn_single_value(fname, x, axes, 3)
    node = BatchStandardize(axes, eps, running_mean, running_var, decay)
    return node.apply((x,))[0], node


def _channel_axes(x, gamma, axes) -> bool:
    """Whether ``axes`` leave exactly axis 1 of ``x``: the channels, as oneDNN's batch normalization has them."""
    return gamma.ndim == 1 and x.ndim >= 2 and tuple(axes) == (0,) + tuple(range(2, x.ndim))


class BatchNormalization(FunctionNode):
    """``gamma * (x - mean) / sqrt(var + eps) + beta`` with the batch statistics of each channel (axis 1),
    computed in one pass by oneDNN; the running averages (if given) are updated in ``forward``.

    Its gradient is the node :class:`BatchNormalizationGrad`, so the arrays-only backward and the
    differentiable one compute it alike.
    """

    def __init__(self, lib, axes, expanded, eps, running_mean, running_var, decay, impl=onednn_bn):
        self.lib = lib
        self.impl = impl   # kusari.onednn.batch_normalization, or kusari.cudnn's on the GPU
        self.axes = axes
        self.expanded = expanded
        self.eps = float(eps)
        self.running_mean = running_mean
        self.running_var = running_var
        self.decay = decay

    def forward(self, inputs):
        x, gamma, beta = inputs
        self.retain_inputs((0, 1))
        y, self.mean, self.var = self.impl.forward_training(self.lib, x, gamma, beta, self.eps)
        if self.running_mean is not None:
            _update_running(self.running_mean, self.running_var, self.mean, self.var, self.decay,
                            x.size // x.shape[1])
        return y,

    def _grad_node(self):
        return BatchNormalizationGrad(self.lib, self.axes, self.expanded, self.eps, self.mean, self.var,
                                      self.impl)

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        return self._grad_node().apply((x, gamma, grad_outputs[0]))


class BatchNormalizationGrad(FunctionNode):
    """``(gx, ggamma, gbeta)`` of :class:`BatchNormalization` from ``(x, gamma, gy)``, by oneDNN.

    With the batch statistics as constants, ``gx = StandardizeGrad(x, gy * gamma)``,
    ``ggamma = sum(gy * x_hat)`` and ``gbeta = sum(gy)``; its own backward differentiates those
    with differentiable ops, so derivatives of any order exist.
    """

    def __init__(self, lib, axes, expanded, eps, mean, var, impl=onednn_bn):
        self.lib = lib
        self.impl = impl
        self.axes = axes
        self.expanded = expanded
        self.eps = eps
        self.mean = mean
        self.var = var

    def forward(self, inputs):
        x, gamma, gy = inputs
        self.retain_inputs((0, 1, 2))
        return self.impl.backward(self.lib, x, gamma, self.mean, self.var, gy, self.eps)

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.broadcast import broadcast_to
        from kusari.functions.array.reshape import reshape
        from kusari.functions.math.sum import sum as fsum
        x, gamma, gy = self.get_retained_inputs()
        a, b, c = grad_outputs
        e = self.expanded
        inv_std = (self.var + numpy.float32(self.eps)) ** numpy.float32(-0.5)
        standardize_grad = StandardizeGrad(self.axes, self.eps, self.mean.reshape(e), inv_std.reshape(e))
        ga = None if a is None else standardize_grad.again(x, a)  # J a, J = d x_hat / dx (symmetric)
        gx = ggamma = ggy = None
        if 0 in indexes:
            if a is not None:
                gx = standardize_grad.grad_x(x, gy * reshape(gamma, e), a)
            if b is not None:
                from_b = standardize_grad.again(x, gy * reshape(b, e))
                gx = from_b if gx is None else gx + from_b
        if 1 in indexes and a is not None:
            ggamma = fsum(ga * gy, axis=self.axes)
        if 2 in indexes:
            terms = []
            if a is not None:
                terms.append(ga * reshape(gamma, e))
            if b is not None:
                x_hat = Standardize(self.axes, self.eps).apply((x,))[0]
                terms.append(x_hat * reshape(b, e))
            if c is not None:
                terms.append(broadcast_to(reshape(c, e), x.shape))
            for term in terms:
                ggy = term if ggy is None else ggy + term
        return gx, ggamma, ggy


def batch_normalization(x, gamma, beta, eps=2e-5, running_mean=None, running_var=None, decay=0.9,
                        axis=None):
    """Batch normalization: ``gamma * (x - mean) / sqrt(var + eps) + beta`` with batch statistics.

    x: (N, *channel_shape, ...); gamma, beta: channel_shape, of one float dtype, x's or another (then
    computed in the promoted dtype and returned in x's: a float16 x with float32 parameters, mixed16,
    is computed in float32; gradients come back in each input's dtype). The statistics are taken over axis 0
    and the axes after the channel axes, or over ``axis`` (int or tuple) when given, in which case the
    remaining axes of x must match gamma.shape. When ``running_mean`` / ``running_var`` (arrays of
    gamma's shape) are given they are updated in place: ``r = decay * r + (1 - decay) * stat``, the
    variance with Bessel's correction ``m / (m - 1)``, m the number of values reduced per channel
    (a single value, m = 1, is left uncorrected so the statistics stay finite).
    An empty batch (m = 0) leaves the running statistics unchanged and gives an empty output;
    its gradients with respect to gamma and beta are zeros.
    Returns a Variable of x's shape.
    """
    fname = "batch_normalization"
    axes, expanded = _norm_axes(fname, x, gamma, beta, axis)
    running_mean, running_var = _check_running(fname, running_mean, running_var, gamma.shape)
    mixed16 = is_mixed16(x, gamma)
    if backend.is_gpu_array(as_array(x)) and (mixed16 or x.dtype == gamma.dtype):
        # under mixed16 cuDNN takes the float16 x with its float32 scale and bias as they are
        params = () if mixed16 else (as_array(gamma), as_array(beta))
        gpu = cudnn.library_for(as_array(x), *params)
        if (gpu is not None and _channel_axes(x, gamma, axes)
                and cudnn_bn.supports_training(gpu, as_array(x), eps, gamma.dtype)):
            _warn_single_value(fname, x, axes, 2)
            node = BatchNormalization(gpu, axes, expanded, eps, running_mean, running_var, decay, cudnn_bn)
            return node.apply((x, gamma, beta))[0]
    if x.dtype != gamma.dtype:
        return run_promoted(x, gamma, lambda x: batch_normalization(
            x, *utils.cast_like(x, gamma, beta), eps, running_mean, running_var, decay, axis))
    lib = onednn.library_for(as_array(x), as_array(gamma), as_array(beta))
    if (lib is not None and _channel_axes(x, gamma, axes)
            and onednn_bn.supports_training(lib, as_array(x), eps)):
        _warn_single_value(fname, x, axes, 2)
        node = BatchNormalization(lib, axes, expanded, eps, running_mean, running_var, decay)
        return node.apply((x, gamma, beta))[0]
    from kusari.functions.array.reshape import reshape

    x_hat, _ = _standardize_batch(fname, x, axes, eps, running_mean, running_var, decay)
    return x_hat * reshape(gamma, expanded) + reshape(beta, expanded)


class FixedBatchNormalization(FunctionNode):
    def __init__(self, axes, expanded, eps):
        self.axes = axes
        self.expanded = expanded
        self.eps = float(eps)

    def forward(self, inputs):
        x, gamma, beta, mean, var = inputs
        self.retain_inputs((0, 1, 3, 4))
        e = self.expanded
        channels = len(e) > 1 and e == (1, x.shape[1]) + (1,) * (x.ndim - 2)
        gpu = cudnn.library_for(x, gamma, beta, mean, var) if backend.is_gpu_array(x) else None
        if gpu is not None and channels:
            y = cudnn_bn.forward_inference(gpu, x, gamma, beta, mean, var, self.eps)
            if y is not None:
                return y,
        lib = onednn.library_for(x, gamma, beta, mean, var)
        if lib is not None and channels:
            y = onednn_bn.forward_inference(lib, x, gamma, beta, mean, var, self.eps)
            if y is not None:
                return y,
        scale = gamma * (var + self.eps) ** -0.5
        return utils.force_array((x - mean.reshape(e)) * scale.reshape(e) + beta.reshape(e)),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.reshape import reshape
        from kusari.functions.math.sum import sum as fsum
        x, gamma, mean, var = self.get_retained_inputs()
        gy, = grad_outputs
        e = self.expanded
        inv_std = (var + self.eps) ** -0.5
        g_beta = fsum(gy, axis=self.axes) if {2, 3} & set(indexes) else None
        g_gamma = None
        if {1, 4} & set(indexes):
            g_gamma = fsum(gy * ((x - reshape(mean, e)) * reshape(inv_std, e)), axis=self.axes)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(gy * reshape(gamma * inv_std, e))
            elif i == 1:
                ret.append(g_gamma)
            elif i == 2:
                ret.append(g_beta)
            elif i == 3:
                ret.append(-(gamma * inv_std) * g_beta)
            else:
                ret.append(-0.5 * gamma * inv_std * inv_std * g_gamma)
        return tuple(ret)


def fixed_batch_normalization(x, gamma, beta, mean, var, eps=2e-5, axis=None):
    """Batch normalization with given statistics: ``gamma * (x - mean) / sqrt(var + eps) + beta``.

    x: (N, *channel_shape, ...); gamma, beta, mean, var: channel_shape (see
    ``batch_normalization`` for ``axis`` and for float16 x with float32 parameters). All five
    inputs are differentiable.
    Returns a Variable of x's shape.
    """
    fname = "fixed_batch_normalization"
    axes, expanded = _norm_axes(fname, x, gamma, beta, axis)
    utils.check_same_dtype(fname, gamma=gamma, mean=mean, var=var)
    if mean.shape != gamma.shape or var.shape != gamma.shape:
        raise ValueError(f"{fname}: mean.shape={mean.shape} and var.shape={var.shape} must both "
                         f"equal gamma.shape={gamma.shape}")
    return run_promoted(x, gamma, lambda x: FixedBatchNormalization(axes, expanded, eps).apply(
        (x, *utils.cast_like(x, gamma, beta, mean, var)))[0])

