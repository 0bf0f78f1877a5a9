"""ps_roi_max_pooling_2d: position-sensitive RoI max pooling."""
import numpy

from kusari import backend
from kusari.vision.functions._ps_roi import PSROIOp, Taps, bin_axis, max_over_samples


class PSROIMaxPooling2D(PSROIOp):
    """Max over each integer bin; the gradient flows to the chosen pixel."""

    _fname = "ps_roi_max_pooling_2d"

    def _taps(self, x, rois, roi_indices):
        h, w = x.shape[2:]
        rows = _elements(*bin_axis(rois, self._scale, 0, self._out_h, h), h)
        cols = _elements(*bin_axis(rois, self._scale, 1, self._out_w, w), w)
        offsets = self._offsets(x, roi_indices)
        y, taps = max_over_samples(x, offsets, self._group, rows, cols)
        return y, Taps(offsets, taps, x.shape, self._group)


def _elements(lo, hi, size):
    """The pixels of integer bins [lo, hi) as samples of one tap each (``align_axis``'s layout)."""
    xp = backend.get_array_module(lo)
    count = hi - lo
    k = xp.arange(max(int(count.max()) if count.size else 1, 1))
    idx = xp.minimum(lo[..., None] + k, size - 1)[..., None]
    valid = k < count[..., None]
    return idx, xp.ones(idx.shape, numpy.float64), valid


def ps_roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale: float, group_size: int):
    """Position-sensitive RoI max pooling: each output bin is the largest element of its own channel
    group within the bin.

    Bins as in :func:`ps_roi_average_pooling_2d`; an empty bin gives -inf (as in ChainerCV) and
    passes no gradient.

    Parameters
    ----------
    x : Variable or array, shape (N, out_c * G * G, H, W), float32 or float64
    rois : array, shape (R, 4), x's dtype
        (y_min, x_min, y_max, x_max) in image coordinates.
    roi_indices : int array, shape (R,)
    outsize : int, (out_h, out_w) or (out_c, out_h, out_w)
    spatial_scale : float
    group_size : int

    Returns
    -------
    Variable, shape (R, out_c, out_h, out_w), x's dtype
        Differentiable with respect to x (through the chosen element).
    """
    return PSROIMaxPooling2D(outsize, spatial_scale, group_size).apply((x, rois, roi_indices))[0]
