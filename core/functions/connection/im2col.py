"""im2col: image patches of a 4-d batch laid out along the channel axis (Chainer's ``F.im2col``)."""
from kusari import utils
from kusari.function_node import FunctionNode
from kusari.functions.connection.convolution import conv_params
from kusari.utils import conv


class Im2Col(FunctionNode):
    def __init__(self, ksize, stride, pad, cover_all, dilate):
        self.ksize = ksize
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = dilate

    def forward(self, inputs):
        x, = inputs
        utils.check_float("im2col", "x", x)
        utils.check_ndim("im2col", "x", x, 4)
        col = conv.im2col(x, self.ksize, self.stride, self.pad, 0, self.cover_all, self.dilate)
        n, c = x.shape[:2]
        return col.reshape((n, c * self.ksize[0] * self.ksize[1]) + col.shape[4:]),

    def backward(self, indexes, grad_outputs):
        return Col2Im(self.ksize, self.stride, self.pad, self.dilate,
                      self.inputs[0].shape).apply(grad_outputs)


class Col2Im(FunctionNode):
    """The adjoint of Im2Col: sums patches (N, C * kh * kw, out_h, out_w) back into (N, C, H, W)."""

    def __init__(self, ksize, stride, pad, dilate, x_shape):
        self.ksize = ksize
        self.stride = stride
        self.pad = pad
        self.dilate = dilate
        self.x_shape = x_shape

    def forward(self, inputs):
        gy, = inputs
        n, c = self.x_shape[:2]
        col = gy.reshape((n, c) + self.ksize + gy.shape[2:])
        return conv.col2im(col, self.stride, self.pad, self.x_shape[2:], self.dilate),

    def backward(self, indexes, grad_outputs):
        cover_all = tuple(
            self.inputs[0].shape[2 + i] != conv.get_conv_outsize(
                self.x_shape[2 + i], self.ksize[i], self.stride[i], self.pad[i], False, self.dilate[i])
            for i in range(2))
        return Im2Col(self.ksize, self.stride, self.pad, cover_all, self.dilate).apply(grad_outputs)


def im2col(x, ksize, stride=1, pad=0, cover_all=False, dilate=1):
    """Patches of each image as channels, so a convolution becomes a 1x1 product.

    Parameters
    ----------
    x : Variable or array of shape (N, C, H, W)
    ksize, stride, pad, dilate : int or pair of ints
    cover_all : bool
        Add output positions so that every input pixel is covered by a patch.

    Returns
    -------
    Variable of shape (N, C * kh * kw, out_h, out_w), where channel ``c * kh * kw + i * kw + j``
    holds tap ``(i, j)`` of input channel ``c``.
    """
    ksize = conv.as_tuple(ksize, 2, "im2col", "ksize")
    if min(ksize) < 1:
        raise ValueError(f"im2col: ksize must be positive, got {ksize}")
    stride, pad, dilate, _ = conv_params("im2col", 2, stride, pad, dilate, 1)
    return Im2Col(ksize, stride, pad, conv.as_flags(cover_all, 2), dilate).apply((x,))[0]
