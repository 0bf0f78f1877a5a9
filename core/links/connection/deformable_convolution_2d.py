"""DeformableConvolution2D: a convolution sampling its taps at learned offsets (Dai et al., 2017)."""
from kusari import functions as F
from kusari import initializers
from kusari.link import Chain, Link
from kusari.links.connection.convolution_2d import Convolution2D
from kusari.utils import conv
from kusari.variable import Parameter


class DeformableConvolution2DSampler(Link):
    """The deformable convolution proper, given offsets: ``(x, offset) -> y``.

    W: (out_channels, in_channels, kh, kw); b: (out_channels,); ``in_channels=None`` defers W.
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        self.ksize = conv.as_tuple(ksize, 2, "DeformableConvolution2D", "ksize")
        self.stride = stride
        self.pad = pad
        self.out_channels = out_channels
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_channels is not None:
                self.W.initialize((out_channels, in_channels) + self.ksize)
            if nobias:
                self.b = None
            else:
                bias = 0 if initial_bias is None else initial_bias
                self.b = Parameter(initializers._get_initializer(bias), out_channels)

    def forward(self, x, offset):
        """x: (N, C, H, W); offset: (N, 2 * kh * kw, H', W') -> (N, out_channels, H', W')."""
        if self.W.array is None:
            self.W.initialize((self.out_channels, x.shape[1]) + self.ksize)
        return F.deformable_convolution_2d_sampler(x, offset, self.W, self.b, self.stride, self.pad)


class DeformableConvolution2D(Chain):
    """Deformable 2-d convolution: ``offset_conv`` predicts the offsets that ``deform_conv`` samples at.

    ``offset_conv`` is a Convolution2D(in_channels, 2 * kh * kw, ksize, stride, pad);
    ``deform_conv`` a DeformableConvolution2DSampler(in_channels, out_channels, ksize, stride, pad).
    (N, C, H, W) -> (N, out_channels, H', W').
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, offset_nobias=False,
                 offset_initialW=None, offset_initial_bias=None, deform_nobias=False,
                 deform_initialW=None, deform_initial_bias=None):
        super().__init__()
        kh, kw = conv.as_tuple(ksize, 2, "DeformableConvolution2D", "ksize")
        with self.init_scope():
            self.offset_conv = Convolution2D(in_channels, 2 * kh * kw, ksize, stride, pad,
                                             offset_nobias, offset_initialW, offset_initial_bias)
            self.deform_conv = DeformableConvolution2DSampler(
                in_channels, out_channels, ksize, stride, pad, deform_nobias, deform_initialW,
                deform_initial_bias)

    def forward(self, x):
        """x: (N, C, H, W) -> (N, out_channels, H', W')."""
        return self.deform_conv(x, self.offset_conv(x))
