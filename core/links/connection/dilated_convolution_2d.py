"""DilatedConvolution2D: a 2-d convolution whose kernel taps are ``dilate`` pixels apart."""
from kusari.links.connection.convolution_nd import ConvolutionND


class DilatedConvolution2D(ConvolutionND):
    """Dilated 2-d convolution: (N, C, H, W) -> (N, out_channels, H', W'); W: (out, in, kh, kw)."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, dilate=1,
                 nobias=False, initialW=None, initial_bias=None):
        super().__init__(2, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, False, dilate, 1)
