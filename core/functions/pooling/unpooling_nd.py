"""unpooling_nd and unpooling_1d/2d/3d: spread each value over its pooling window (pooling's inverse)."""
from kusari.function_node import FunctionNode
from kusari.functions.pooling import _window
from kusari.utils.conv import as_tuple, get_conv_outsize, get_deconv_outsize
from kusari.utils.type_check import InvalidType


class UnpoolingND(FunctionNode):
    def __init__(self, fname, nd, ksize, stride, pad, outsize, cover_all):
        self._fname = fname
        self._nd = nd
        self._args = (ksize, stride, pad, outsize, cover_all)

    def forward(self, inputs):
        x = inputs[0]
        self._geom = unpooling_geometry(self._fname, x, self._nd, *self._args)
        return _window.window_spread(x, self._geom),

    def backward(self, indexes, grad_outputs):
        return _window.WindowSum(self._geom).apply(grad_outputs)


def unpooling_geometry(fname, x, nd, ksize, stride, pad, outsize, cover_all):
    """Validate an unpooling of ``x`` and return the Geometry of the windows over the output."""
    ksize, stride, pad = _window.window_args(fname, x, nd, ksize, stride, pad)
    ins = tuple(x.shape[2:])
    if outsize is None:
        outsize = tuple(get_deconv_outsize(d, k, s, p, cover_all)
                        for d, k, s, p in zip(ins, ksize, stride, pad))
        if min(outsize) < 0:   # a size of 0 is an empty output, as in Chainer
            raise ValueError(f"{fname}: ksize={ksize}, stride={stride}, pad={pad} give an empty output "
                             f"for x.shape[2:]={ins}")
    else:
        outsize = as_tuple(outsize, len(ins), fname, "outsize")
        pooled = tuple(get_conv_outsize(o, k, s, p, cover_all)
                       for o, k, s, p in zip(outsize, ksize, stride, pad))
        if pooled != ins:
            # InvalidType is the ValueError Chainer raised here
            raise InvalidType(None, None, f"{fname}: outsize={outsize} pools back to {pooled}, which does not "
                              f"match x.shape[2:]={ins} (ksize={ksize}, stride={stride}, pad={pad}, "
                              f"cover_all={cover_all})")
    return _window.Geometry(outsize, ksize, stride, pad, ins)


def unpooling_nd(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """N-d unpooling: each element of x (n, c, d_1, ..., d_N) is copied over its ksize window.

    Overlapping windows add up; ``pad`` is cropped off. The output (n, c, out_1, ..., out_N) has
    ``outsize`` (default: the smallest size that max_pooling_nd with the same ksize, stride, pad and
    cover_all maps back to x's size).
    """
    return UnpoolingND("unpooling_nd", None, ksize, stride, pad, outsize, cover_all).apply((x,))[0]


def unpooling_1d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """1-d unpooling of x (n, c, w); see ``unpooling_nd``."""
    return UnpoolingND("unpooling_1d", 1, ksize, stride, pad, outsize, cover_all).apply((x,))[0]


def unpooling_2d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """2-d unpooling of x (n, c, h, w) to (n, c, out_h, out_w); see ``unpooling_nd``."""
    return UnpoolingND("unpooling_2d", 2, ksize, stride, pad, outsize, cover_all).apply((x,))[0]


def unpooling_3d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """3-d unpooling of x (n, c, d, h, w); see ``unpooling_nd``."""
    return UnpoolingND("unpooling_3d", 3, ksize, stride, pad, outsize, cover_all).apply((x,))[0]

