"""Deconvolution2D: the two-dimensional transposed convolution layer."""
from kusari.links.connection.deconvolution_nd import DeconvolutionND


class Deconvolution2D(DeconvolutionND):
    """2-d transposed convolution: (N, in_channels, H, W) -> (N, out_channels, H', W').

    W has shape (in_channels, out_channels / groups, kh, kw); see DeconvolutionND.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
                 outsize=None, initialW=None, initial_bias=None, *, dilate=1, groups=1):
        super().__init__(2, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)
