"""average_pooling_nd and average_pooling_1d/2d/3d: mean over sliding N-d windows."""
import numpy

from kusari import backend
from kusari.function_node import FunctionNode
from kusari.functions.pooling import _window
from kusari.onednn import pooling as onednn_pooling


class AveragePoolingND(FunctionNode):
    def __init__(self, fname, nd, ksize, stride, pad, pad_value):
        if not (pad_value is None or (not isinstance(pad_value, bool) and pad_value == 0)):
            raise ValueError(f"{fname}: pad_value must be 0 or None, got {pad_value!r}")
        self._fname = fname
        self._args = (nd, ksize, stride, pad, False)
        self._pad_value = pad_value

    def forward(self, inputs):
        x = inputs[0]
        geom = _window.pooling_geometry(self._fname, x, *self._args)
        if self._pad_value is None:
            inv = 1.0 / numpy.maximum(_valid_counts(geom), 1)  # an all-padding window averages to 0
            coeff = backend.get_array_module(x).asarray(inv.astype(x.dtype))
        else:
            coeff = 1.0 / geom.window_size
        self._geom, self._coeff = geom, coeff
        algorithm = (onednn_pooling.AVERAGE_EXCLUDE_PADDING if self._pad_value is None
                     else onednn_pooling.AVERAGE_INCLUDE_PADDING)
        fast = _window.onednn_pooling(x, geom, algorithm)
        self._onednn = None if fast is None else (fast[0], algorithm, fast[2])
        return _window.window_sum(x, geom, coeff) if fast is None else fast[1],

    def _onednn_grad(self):
        lib, algorithm, saved = self._onednn
        return _window.PoolingGrad(lib, self._geom, algorithm, saved,
                                   lambda: _window.WindowSum(self._geom, self._coeff))

    def backward(self, indexes, grad_outputs):
        if self._onednn is not None:
            return self._onednn_grad().apply(grad_outputs)
        return _window.WindowSpread(self._geom, self._coeff).apply(grad_outputs)


def _valid_counts(geom):
    """Number of non-padding elements in each window, shape ``outs`` (float64, on the host)."""
    counts = numpy.ones((), numpy.float64)
    for d, k, s, p, o in zip(geom.dims, geom.ksize, geom.stride, geom.pad, geom.outs):
        starts = numpy.arange(o) * s - p
        per_axis = numpy.minimum(starts + k, d) - numpy.maximum(starts, 0)
        counts = numpy.multiply.outer(counts, per_axis)
    return counts


def average_pooling_nd(x, ksize, stride=None, pad=0, pad_value=0):
    """N-d spatial average pooling.

    x: (n, c, d_1, ..., d_N). ksize, stride (default: ksize) and pad are ints or N-tuples. With
    ``pad_value=0`` padded elements count as zeros (every window is divided by prod(ksize)); with
    ``pad_value=None`` they are left out of the mean. Returns (n, c, out_1, ..., out_N), windows
    never running past the padded input (no cover_all).
    """
    return AveragePoolingND("average_pooling_nd", None, ksize, stride, pad, pad_value).apply((x,))[0]


def average_pooling_1d(x, ksize, stride=None, pad=0, pad_value=0):
    """1-d average pooling of x (n, c, w); see ``average_pooling_nd``."""
    return AveragePoolingND("average_pooling_1d", 1, ksize, stride, pad, pad_value).apply((x,))[0]


def average_pooling_2d(x, ksize, stride=None, pad=0):
    """2-d average pooling of x (n, c, h, w) to (n, c, out_h, out_w); padding counts as zeros."""
    return AveragePoolingND("average_pooling_2d", 2, ksize, stride, pad, 0).apply((x,))[0]


def average_pooling_3d(x, ksize, stride=None, pad=0, pad_value=0):
    """3-d average pooling of x (n, c, d, h, w); see ``average_pooling_nd``."""
    return AveragePoolingND("average_pooling_3d", 3, ksize, stride, pad, pad_value).apply((x,))[0]
