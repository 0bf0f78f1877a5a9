"""deconvolution_nd and its 1-d, 2-d and 3-d forms: N-d transposed convolution, the adjoint of convolution.

Its gradient with respect to ``x`` is a convolution with the same filter, and the one with respect
to ``W`` is the convolution weight-gradient node with the roles of ``x`` and ``gy`` swapped.
"""
from kusari import utils
from kusari.function_node import FunctionNode
from kusari.functions.connection.convolution import (ConvolutionWeightGrad, add_bias, bias_grad,
                                                     check_conv_inputs, conv_params, convolution_nd,
                                                     spatial_ndim)
from kusari.utils import argument, conv
from kusari.utils.type_check import InvalidType


class Deconvolution(FunctionNode):
    def __init__(self, fname, nd, stride, pad, outsize, dilate, groups):
        self._fname = fname
        self._nd = nd
        self.stride = stride
        self.pad = pad
        self.outsize = outsize
        self.dilate = dilate
        self.groups = groups

    def _output_size(self, x, W):
        fname, nd = self._fname, self._nd
        ins, ks = x.shape[2:], W.shape[2:]
        s, p, d = self.stride, self.pad, self.dilate
        if self.outsize is None:
            outs = tuple(conv.get_deconv_outsize(ins[i], ks[i], s[i], p[i], d=d[i]) for i in range(nd))
            if min(outs) <= 0:
                raise InvalidType(None, None, f"{fname}: the output size would be {outs} (x.shape={tuple(x.shape)}, "
                                              f"W.shape={tuple(W.shape)}, stride={s}, pad={p}); lower pad")
            return outs, (False,) * nd
        outs = self.outsize
        lo = tuple(conv.get_conv_outsize(outs[i], ks[i], s[i], p[i], False, d[i]) for i in range(nd))
        hi = tuple(conv.get_conv_outsize(outs[i], ks[i], s[i], p[i], True, d[i]) for i in range(nd))
        if not all(lo[i] <= ins[i] <= hi[i] for i in range(nd)):
            raise InvalidType(None, None, f"{fname}: outsize={outs} does not match x.shape[2:]={tuple(ins)}: a "
                                          f"convolution of that size with W.shape={tuple(W.shape)}, stride={s}, "
                                          f"pad={p}, dilate={d} gives {lo}")
        # Along an axis where x is one window longer than a plain convolution of outsize gives,
        # the adjoint convolution (our backward) needs cover_all to reproduce x's size.
        return outs, tuple(ins[i] != lo[i] for i in range(nd))

    def forward(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        fname, g = self._fname, self.groups
        check_conv_inputs(fname, self._nd, x, W, b, W.shape[1] * g)
        if x.shape[1] != W.shape[0]:
            raise InvalidType(None, None, f"{fname}: x has {x.shape[1]} channels but W expects {W.shape[0]} "
                                          f"(x.shape={tuple(x.shape)}, W.shape={tuple(W.shape)})")
        if W.shape[0] % g:
            raise InvalidType(None, None, f"{fname}: W.shape[0]={W.shape[0]} input channels are not divisible by "
                                          f"groups={g}")
        outs, self.cover_all = self._output_size(x, W)
        self.retain_inputs((0, 1))
        y = conv.deconv_forward(x, W, self.stride, self.pad, outs, self.dilate, g)
        if b is not None:
            add_bias(y, b)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(convolution_nd(gy, W, None, self.stride, self.pad, self.cover_all, self.dilate,
                                      self.groups))
        if 1 in indexes:
            node = ConvolutionWeightGrad(W.shape[2:], self.stride, self.pad, self.cover_all,
                                         self.dilate, self.groups)
            ret.append(node.apply((gy, x))[0])
        if 2 in indexes:
            ret.append(bias_grad(gy))
        return tuple(ret)


def _deconvolution(fname, nd, x, W, b, stride, pad, outsize, dilate, groups):
    """Transposed convolution whose error messages name ``fname``; ``nd`` None takes it from ``x``."""
    if nd is None:
        nd = spatial_ndim(fname, x)
    stride, pad, dilate, groups = conv_params(fname, nd, stride, pad, dilate, groups)
    if outsize is not None:
        outsize = conv.as_tuple(outsize, nd, fname, "outsize")
    node = Deconvolution(fname, nd, stride, pad, outsize, dilate, groups)
    return node.apply((x, W) if b is None else (x, W, b))[0]


def deconvolution_nd(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """N-dimensional transposed convolution (the gradient of ``convolution_nd`` with respect to x).

    Parameters
    ----------
    x : Variable or array of shape (N, C_in, d_1, ..., d_n)
    W : Variable or array of shape (C_in, C_out / groups, k_1, ..., k_n)
    b : Variable or array of shape (C_out,), optional
        W and b may have other float dtypes than x, as in ``convolution_nd``.
    stride, pad, dilate : int or n-tuple of ints
    outsize : n-tuple of ints, optional
        Output spatial shape; by default ``stride * (d - 1) + (k - 1) * dilate + 1 - 2 * pad``.
        It must be a size whose convolution gives back ``x``'s spatial shape.
    groups : int

    Returns
    -------
    Variable of shape (N, C_out, *outsize).
    """
    W, b = utils.cast_like(x, W, b)
    return _deconvolution("deconvolution_nd", None, x, W, b, stride, pad, outsize, dilate, groups)


def deconvolution_1d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """1-d transposed convolution: ``x`` (N, C_in, L), ``W`` (C_in, C_out / groups, k)."""
    W, b = utils.cast_like(x, W, b)
    return _deconvolution("deconvolution_1d", 1, x, W, b, stride, pad, outsize, dilate, groups)


def deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, **kwargs):
    """2-d transposed convolution: ``x`` (N, C_in, H, W), ``W`` (C_in, C_out / groups, kh, kw).

    Keyword-only ``dilate`` (default 1) and ``groups`` (default 1) as in Chainer.
    """
    try:
        dilate, groups = argument.parse_kwargs(kwargs, ("dilate", 1), ("groups", 1))
    except TypeError as e:
        raise TypeError(f"deconvolution_2d: {e}") from None
    W, = utils.cast_like(x, W)  # b must match x, as in Chainer's deconvolution_2d
    return _deconvolution("deconvolution_2d", 2, x, W, b, stride, pad, outsize, dilate, groups)


def deconvolution_3d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """3-d transposed convolution: ``x`` (N, C_in, D, H, W), ``W`` (C_in, C_out / groups, kd, kh, kw)."""
    W, b = utils.cast_like(x, W, b)
    return _deconvolution("deconvolution_3d", 3, x, W, b, stride, pad, outsize, dilate, groups)
