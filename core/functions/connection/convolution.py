"""convolution_nd and its 1-d, 2-d and 3-d forms: grouped, dilated N-d convolution (cross-correlation).

Forward is im2col plus one batched GEMM (``kusari.utils.conv``). The gradient with respect to ``x``
is a transposed convolution and the one with respect to ``W`` is a GEMM node whose own gradients
are again a convolution and a transposed convolution, so every order of backprop stays on these ops.
"""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.onednn import layout
from kusari.utils import argument, conv
from kusari.variable import Variable
from kusari.utils.type_check import InvalidType

_DETERMINISTIC = ("the deterministic argument is not supported anymore; use "
                  "kusari.using_config('cudnn_deterministic', value)")


def _shape(x):
    return tuple(x.shape)


def check_conv_inputs(fname, nd, x, W, b, bias_size):
    """Checks shared by convolution and deconvolution: dtypes, ranks, and the bias length."""
    utils.check_float(fname, "x", x)
    utils.check_float(fname, "W", W)
    utils.check_same_dtype(fname, x=x, W=W, b=b)
    if x.ndim != nd + 2 or W.ndim != nd + 2:
        raise InvalidType(None, None, f"{fname}: x and W must both be {nd + 2}-dimensional (N, C, spatial...) and "
                                      f"(C_out, C_in, kernel...), got x.shape={_shape(x)}, W.shape={_shape(W)}")
    if b is not None and _shape(b) != (bias_size,):
        raise InvalidType(None, None, f"{fname}: b must have shape ({bias_size},), got b.shape={_shape(b)} "
                                      f"(W.shape={_shape(W)})")


def conv_params(fname, nd, stride, pad, dilate, groups):
    """``stride``, ``pad``, ``dilate`` as validated ``nd``-tuples and ``groups`` as a positive int."""
    stride = conv.as_tuple(stride, nd, fname, "stride")
    pad = conv.as_tuple(pad, nd, fname, "pad")
    dilate = conv.as_tuple(dilate, nd, fname, "dilate")
    if min(stride) < 1:
        raise ValueError(f"{fname}: stride must be positive, got {stride}")
    if min(dilate) < 1:
        raise ValueError(f"{fname}: dilate must be positive, got {dilate}")
    if min(pad) < 0:
        raise ValueError(f"{fname}: pad must be non-negative, got {pad}")
    if int(groups) < 1:
        raise ValueError(f"{fname}: groups must be a positive integer, got {groups}")
    return stride, pad, dilate, int(groups)


def spatial_ndim(fname, x):
    """The number of spatial axes of ``x`` (N, C, d_1, ..., d_n), n >= 1."""
    if x.ndim < 3:
        raise ValueError(f"{fname}: x must have shape (N, C, d_1, ..., d_n) with n >= 1, "
                         f"got x.shape={_shape(x)}")
    return x.ndim - 2


def bias_grad(gy):
    """Sum of ``gy`` (N, C, spatial...) over every axis but the channels: a Variable (C,).

    Computed as products with a vector of ones, in ``gy``'s memory order: NumPy's sum over those
    axes runs short strided loops (LeNet-5's channels-last 128x6x24x24 gradient: 1.5 ms summed,
    0.18 ms as a product; row-major, 0.16 and 0.065 ms; AVX-512 Xeon, one thread).
    """
    from kusari.functions.array.reshape import reshape
    from kusari.functions.array.transpose import transpose
    from kusari.functions.math.matmul import matmul
    from kusari.functions.math.sum import sum as _sum
    n, c = gy.shape[:2]
    array = gy.array if isinstance(gy, Variable) else gy
    xp = backend.get_array_module(array)
    if gy.ndim > 2 and layout.is_channels_last(array):
        # memory (N, spatial..., C): the transposed view is contiguous, one (N * spatial, C) matrix
        rows = reshape(transpose(gy, (0,) + tuple(range(2, gy.ndim)) + (1,)), (-1, c))
        return matmul(xp.ones(rows.shape[0], array.dtype), rows)
    spatial = utils.size_of_shape(gy.shape[2:])
    per_sample = matmul(reshape(gy, (n, c, spatial)), xp.ones(spatial, array.dtype))
    return _sum(per_sample, axis=0)


def add_bias(y, b):
    """``y += b`` along the channel axis of ``y`` (in place; ``y`` is a fresh array)."""
    y += b.reshape((1, -1) + (1,) * (y.ndim - 2))
    return y


class Convolution(FunctionNode):
    def __init__(self, fname, nd, stride, pad, cover_all, dilate, groups):
        self._fname = fname
        self._nd = nd
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = dilate
        self.groups = groups

    def forward(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        fname, g = self._fname, self.groups
        check_conv_inputs(fname, self._nd, x, W, b, W.shape[0])
        if x.shape[1] != W.shape[1] * g:
            grouped = f", groups={g}" if g != 1 else ""
            raise InvalidType(None, None, f"{fname}: x has {x.shape[1]} channels but W expects {W.shape[1] * g} "
                                          f"(x.shape={_shape(x)}, W.shape={_shape(W)}{grouped})")
        if W.shape[0] % g:
            raise InvalidType(None, None, f"{fname}: W.shape[0]={W.shape[0]} output channels are not divisible by "
                                          f"groups={g}")
        outs = [conv.get_conv_outsize(x.shape[2 + i], W.shape[2 + i], self.stride[i], self.pad[i],
                                      self.cover_all[i], self.dilate[i]) for i in range(self._nd)]
        if min(outs) <= 0:
            raise InvalidType(None, None, f"{fname}: the kernel does not fit the input: output size would be "
                                          f"{tuple(outs)} (x.shape={_shape(x)}, W.shape={_shape(W)}, "
                                          f"pad={self.pad}, dilate={self.dilate})")
        self.retain_inputs((0, 1))
        return conv.conv_forward(x, W, self.stride, self.pad, self.cover_all, self.dilate, g, b),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.connection.deconvolution import deconvolution_nd
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(deconvolution_nd(gy, W, None, self.stride, self.pad, x.shape[2:], self.dilate,
                                        self.groups))
        if 1 in indexes:
            node = ConvolutionWeightGrad(W.shape[2:], self.stride, self.pad, self.cover_all,
                                         self.dilate, self.groups)
            ret.append(node.apply((x, gy))[0])
        if 2 in indexes:
            ret.append(bias_grad(gy))
        return tuple(ret)


class ConvolutionWeightGrad(FunctionNode):
    """gW = conv_weight_grad(x, gy); bilinear in (x, gy), so its gradients are (de)convolutions with ggW."""

    def __init__(self, ksize, stride, pad, cover_all, dilate, groups):
        self.ksize = tuple(ksize)
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = dilate
        self.groups = groups

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        return conv.conv_weight_grad(x, gy, self.ksize, self.stride, self.pad, self.cover_all,
                                     self.dilate, self.groups),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.connection.deconvolution import deconvolution_nd
        x, gy = self.get_retained_inputs()
        ggw, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(deconvolution_nd(gy, ggw, None, self.stride, self.pad, x.shape[2:],
                                        self.dilate, self.groups))
        if 1 in indexes:
            ret.append(convolution_nd(x, ggw, None, self.stride, self.pad, self.cover_all,
                                      self.dilate, self.groups))
        return tuple(ret)


def apply_convolution(fname, nd, x, W, b, stride, pad, cover_all, dilate, groups):
    """Convolution whose error messages name ``fname``; ``nd`` None takes it from ``x``."""
    if nd is None:
        nd = spatial_ndim(fname, x)
    stride, pad, dilate, groups = conv_params(fname, nd, stride, pad, dilate, groups)
    node = Convolution(fname, nd, stride, pad, conv.as_flags(cover_all, nd), dilate, groups)
    return node.apply((x, W) if b is None else (x, W, b))[0]


def convolution_nd(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """N-dimensional convolution (cross-correlation) with optional groups and dilation.

    Parameters
    ----------
    x : Variable or array of shape (N, C, d_1, ..., d_n)
    W : Variable or array of shape (C_out, C / groups, k_1, ..., k_n)
    b : Variable or array of shape (C_out,), optional
        W and b may have other float dtypes than x: they are cast to x's (Chainer's rule; in
        ``convolution_2d`` b must have x's dtype), and their gradients come back in their own.
    stride, pad, dilate : int or n-tuple of ints
    cover_all : bool
        Add output positions so that every input element is covered by a window.
    groups : int
        Split the channels into this many groups convolved independently.

    Returns
    -------
    Variable of x's dtype and shape (N, C_out, o_1, ..., o_n) with
    ``o_i = (d_i + 2 * pad_i - (k_i - 1) * dilate_i - 1) // stride_i + 1``.
    """
    W, b = utils.cast_like(x, W, b)
    return apply_convolution("convolution_nd", None, x, W, b, stride, pad, cover_all, dilate, groups)


def convolution_1d(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """1-d convolution: ``x`` (N, C, L), ``W`` (C_out, C / groups, k) -> (N, C_out, L_out)."""
    W, b = utils.cast_like(x, W, b)
    return apply_convolution("convolution_1d", 1, x, W, b, stride, pad, cover_all, dilate, groups)


def convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False, **kwargs):
    """2-d convolution: ``x`` (N, C, H, W), ``W`` (C_out, C / groups, kh, kw) -> (N, C_out, H_out, W_out).

    Keyword-only ``dilate`` (default 1) and ``groups`` (default 1) as in Chainer.
    """
    try:
        dilate, groups = argument.parse_kwargs(kwargs, ("dilate", 1), ("groups", 1),
                                               deterministic=_DETERMINISTIC)
    except (TypeError, ValueError) as e:
        raise type(e)(f"convolution_2d: {e}") from None
    W, = utils.cast_like(x, W)  # b must match x, as in Chainer's convolution_2d
    return apply_convolution("convolution_2d", 2, x, W, b, stride, pad, cover_all, dilate, groups)


def convolution_3d(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """3-d convolution: ``x`` (N, C, D, H, W), ``W`` (C_out, C / groups, kd, kh, kw)."""
    W, b = utils.cast_like(x, W, b)
    return apply_convolution("convolution_3d", 3, x, W, b, stride, pad, cover_all, dilate, groups)
