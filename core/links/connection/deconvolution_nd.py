"""DeconvolutionND (transposed convolution) and its fixed-dimension forms Deconvolution1D, Deconvolution3D."""
from kusari import functions as F
from kusari.links.connection.convolution_nd import ConvolutionND


class DeconvolutionND(ConvolutionND):
    """N-dimensional transposed convolution: (N, in_channels, *spatial) -> (N, out_channels, *out_spatial).

    W has shape (in_channels, out_channels / groups, *ksize); ``outsize`` fixes the output
    spatial size when the stride makes it ambiguous. ``DeconvolutionND(ndim, out_channels, ksize)``
    defers in_channels to the first call.
    """

    _transposed = True

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
                 outsize=None, initialW=None, initial_bias=None, dilate=1, groups=1):
        super().__init__(ndim, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, False, dilate, groups)
        self.outsize = outsize

    def forward(self, x):
        """x: (N, C, *spatial) -> (N, out_channels, *out_spatial)."""
        self._lazy_init(x)
        return F.deconvolution_nd(x, self.W, self.b, self.stride, self.pad, outsize=self.outsize,
                                  dilate=self.dilate, groups=self.groups)


class Deconvolution1D(DeconvolutionND):
    """DeconvolutionND with ``ndim=1``."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
                 outsize=None, initialW=None, initial_bias=None, dilate=1, groups=1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)


class Deconvolution3D(DeconvolutionND):
    """DeconvolutionND with ``ndim=3``."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
                 outsize=None, initialW=None, initial_bias=None, dilate=1, groups=1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)
