"""Convolution2D: the two-dimensional convolution layer."""
from kusari.links.connection.convolution_nd import ConvolutionND


class Convolution2D(ConvolutionND):
    """2-d convolution layer: (N, C, H, W) -> (N, out_channels, H', W').

    ``Convolution2D(out_channels, ksize)`` defers in_channels to the first call. W has shape
    (out_channels, in_channels / groups, kh, kw); see ConvolutionND for the other arguments.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None, *, dilate=1, groups=1):
        super().__init__(2, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, False, dilate, groups)
