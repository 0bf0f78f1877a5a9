"""resize_images: resize a batch of images by bilinear or nearest-neighbour interpolation."""
import numbers

import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.array._common import add_at


def _axis_taps(n_in, n_out, mode, align_corners):
    """Two source indices and their weights for each of the ``n_out`` samples along one axis.

    ``align_corners=True`` puts the first and last output samples on the first and last input
    samples (nearest rounds to the closest one); ``False`` follows OpenCV: bilinear aligns pixel
    areas and clamps at the border, nearest takes ``floor(i * n_in / n_out)``.
    """
    out = numpy.arange(n_out, dtype=numpy.float64)
    if align_corners:
        src = out * ((n_in - 1) / (n_out - 1)) if n_out > 1 else numpy.zeros(n_out)
    else:
        src = (out + 0.5) * (n_in / n_out) - 0.5
    if mode == "nearest":
        nearest = numpy.floor(src + 0.5) if align_corners else numpy.floor(out * (n_in / n_out))
        i0 = numpy.clip(nearest, 0, n_in - 1).astype(numpy.intp)
        return i0, i0, numpy.ones(n_out), numpy.zeros(n_out)
    src = numpy.clip(src, 0, n_in - 1)
    i0 = numpy.floor(src).astype(numpy.intp)
    w1 = src - i0
    return i0, numpy.minimum(i0 + 1, n_in - 1), 1 - w1, w1


class _Interpolation:
    """Separable interpolation of axes 2 (height) and 3 (width) of 4-D arrays, and its adjoint."""

    def __init__(self, in_hw, out_hw, mode, align_corners):
        self.in_hw = in_hw
        self.out_hw = out_hw
        self.mode = mode
        self.align_corners = align_corners

    def _taps(self, xp, dtype):
        for axis, n_in, n_out in zip((2, 3), self.in_hw, self.out_hw):
            i0, i1, w0, w1 = _axis_taps(n_in, n_out, self.mode, self.align_corners)
            wshape = (n_out, 1, 1, 1)
            yield (axis, n_in, xp.asarray(i0), xp.asarray(i1),
                   xp.asarray(w0.astype(dtype).reshape(wshape)), xp.asarray(w1.astype(dtype).reshape(wshape)))

    def apply(self, x):
        xp = backend.get_array_module(x)
        for axis, _, i0, i1, w0, w1 in self._taps(xp, x.dtype):
            xm = xp.moveaxis(x, axis, 0)
            x = xp.moveaxis(xm[i0] * w0 + xm[i1] * w1, 0, axis)
        return x

    def apply_adjoint(self, gy):
        xp = backend.get_array_module(gy)
        for axis, n_in, i0, i1, w0, w1 in self._taps(xp, gy.dtype):
            gm = xp.moveaxis(gy, axis, 0)
            gx = xp.zeros((n_in,) + gm.shape[1:], gy.dtype)
            add_at(gx, i0, gm * w0)
            add_at(gx, i1, gm * w1)
            gy = xp.moveaxis(gx, 0, axis)
        return gy


class ResizeImages(FunctionNode):
    def __init__(self, output_shape, mode, align_corners):
        self._output_shape = output_shape
        self._mode = mode
        self._align_corners = align_corners

    def forward(self, inputs):
        x = inputs[0]
        if x.ndim != 4:
            raise ValueError(f"resize_images: x must be 4-dimensional (n, c, h, w), got shape {x.shape}")
        utils.check_float("resize_images", "x", x)
        self._interp = _Interpolation(x.shape[2:], self._output_shape, self._mode,
                                      self._align_corners)
        return self._interp.apply(x),

    def backward(self, indexes, grad_outputs):
        return ResizeImagesGrad(self._interp).apply(grad_outputs)


class ResizeImagesGrad(FunctionNode):
    """The adjoint (transpose) of ResizeImages: spreads output gradients back over the taps."""

    def __init__(self, interp):
        self._interp = interp

    def forward(self, inputs):
        return self._interp.apply_adjoint(inputs[0]),

    def backward(self, indexes, grad_outputs):
        interp = self._interp
        return ResizeImages(interp.out_hw, interp.mode, interp.align_corners).apply(grad_outputs)


def resize_images(x, output_shape, *, mode="bilinear", align_corners=True):
    """Resize images ``x`` of shape ``(n, c, h, w)`` to ``(n, c, h_O, w_O)``.

    ``output_shape``: ``(h_O, w_O)``. ``mode``: ``'bilinear'`` or ``'nearest'``.
    ``align_corners=True`` (Chainer's default) maps the corner pixels of the input onto those of
    the output; ``False`` behaves as OpenCV's ``INTER_LINEAR`` / ``INTER_NEAREST``. With
    ``align_corners=True``, nearest rounds the corner-aligned position (ties go up).
    """
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"resize_images: mode={mode!r} must be 'bilinear' or 'nearest'")
    shape = tuple(output_shape)
    if len(shape) != 2 or any(not isinstance(s, numbers.Integral) or s < 1 for s in shape):
        raise ValueError(f"resize_images: output_shape={output_shape!r} must be two positive ints "
                         "(h_O, w_O)")
    return ResizeImages(tuple(int(s) for s in shape), mode, bool(align_corners)).apply((x,))[0]
