"""ps_roi_max_align_2d: position-sensitive RoIAlign, taking the largest bilinear sample."""
from kusari.vision.functions._ps_roi import PSROIOp, Taps, align_axis, max_over_samples


class PSROIMaxAlign2D(PSROIOp):
    """Max over each bin's bilinear samples; the gradient flows to the chosen sample's pixels."""

    _fname = "ps_roi_max_align_2d"
    _align = True

    def _taps(self, x, rois, roi_indices):
        h, w = x.shape[2:]
        rows = align_axis(rois, self._scale, 0, self._out_h, h, self._ratio[0], average=False)
        cols = align_axis(rois, self._scale, 1, self._out_w, w, self._ratio[1], average=False)
        offsets = self._offsets(x, roi_indices)
        y, taps = max_over_samples(x, offsets, self._group, rows, cols)
        return y, Taps(offsets, taps, x.shape, self._group)


def ps_roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale: float, group_size: int,
                        sampling_ratio=None):
    """Position-sensitive RoIAlign with max: each output bin is the largest bilinear sample of its own
    channel group.

    Sample points as in :func:`ps_roi_average_align_2d`; points more than one pixel outside the
    image are skipped, and a bin without any point gives -inf (as in ChainerCV).

    Parameters
    ----------
    x : Variable or array, shape (N, out_c * G * G, H, W), float32 or float64
    rois : array, shape (R, 4), x's dtype
        (y_min, x_min, y_max, x_max) in image coordinates.
    roi_indices : int array, shape (R,)
    outsize : int, (out_h, out_w) or (out_c, out_h, out_w)
    spatial_scale : float
    group_size : int
    sampling_ratio : None, int or (int, int)

    Returns
    -------
    Variable, shape (R, out_c, out_h, out_w), x's dtype
        Differentiable with respect to x (through the chosen sample).
    """
    return PSROIMaxAlign2D(outsize, spatial_scale, group_size, sampling_ratio).apply((x, rois, roi_indices))[0]
