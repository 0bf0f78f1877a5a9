"""Bilinear resampling filters for (de)convolution weights: UpsamplingDeconvFilter, DownsamplingConvFilter."""
import numpy

from kusari import backend
from kusari.initializer import Initializer
from kusari.initializers import _random


def _linear_kernel(size: int, ndim: int) -> numpy.ndarray:
    """Separable tent kernel of ``size**ndim`` (Long et al., 2015): peak 1 at the center."""
    factor = (size + 1) // 2
    center = factor - 1.0 if size % 2 == 1 else factor - 0.5
    tent = 1.0 - numpy.abs(numpy.arange(size) - center) / factor
    kernel = numpy.ones(())
    for _ in range(ndim):
        kernel = numpy.multiply.outer(kernel, tent)
    return kernel


class _SamplingFilter(Initializer):
    upsampling = True

    def __init__(self, interpolation="linear", dtype=None):
        if interpolation != "linear":
            raise ValueError(f"{type(self).__name__}: unsupported interpolation {interpolation!r} "
                             "(only 'linear')")
        self.interpolation = interpolation
        super().__init__(dtype)

    def __call__(self, array):
        who = type(self).__name__
        _random.check_dtype(who, self, array)
        if array.ndim < 3:
            raise ValueError(f"{who}: array must be (C, C or 1, *kernel), got shape {array.shape}")
        c0, c1 = array.shape[:2]
        if not (c0 == c1 or c1 == 1):
            raise ValueError(f"{who}: the first two axes must be equal or the second 1, "
                             f"got shape {array.shape}")
        ksize = set(array.shape[2:])
        if len(ksize) != 1:
            raise ValueError(f"{who}: the kernel must have the same size on every axis, "
                             f"got {array.shape[2:]}")
        kernel = _linear_kernel(ksize.pop(), array.ndim - 2)
        if not self.upsampling:
            kernel /= kernel.sum()
        xp = backend.get_array_module(array)
        array[...] = 0
        idx = xp.arange(c0)
        array[idx, 0 if c1 == 1 else idx] = xp.asarray(kernel.astype(array.dtype))


class UpsamplingDeconvFilter(_SamplingFilter):
    """Channel-wise bilinear upsampling weight (C, C or 1, k, ..., k) for DeconvolutionND.

    Intended with ``stride == (k + 1) // 2``.
    """


class DownsamplingConvFilter(_SamplingFilter):
    """Channel-wise bilinear downsampling weight (C, C or 1, k, ..., k), normalized to sum 1, for ConvolutionND."""

    upsampling = False
