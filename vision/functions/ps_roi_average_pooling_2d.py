"""ps_roi_average_pooling_2d: position-sensitive RoI average pooling (R-FCN, FCIS)."""
from kusari import backend
from kusari.vision.functions._ps_roi import PSROIOp, Taps, bin_axis


class PSROIAveragePooling2D(PSROIOp):
    """Mean of each integer bin; computed from x's integral image (4 reads per bin, any bin size)."""

    _fname = "ps_roi_average_pooling_2d"

    def _taps(self, x, rois, roi_indices):
        xp = backend.get_array_module(x)
        h, w = x.shape[2:]
        row_lo, row_hi = (v[:, :, None] for v in bin_axis(rois, self._scale, 0, self._out_h, h))
        col_lo, col_hi = (v[:, None, :] for v in bin_axis(rois, self._scale, 1, self._out_w, w))
        count = (row_hi - row_lo) * (col_hi - col_lo)
        weight = xp.where(count > 0, 1.0 / xp.maximum(count, 1), 0.0)     # an empty bin gives 0
        taps = Taps(self._offsets(x, roi_indices, integral=True),
                    [(row_hi, col_hi, weight), (row_lo, col_hi, -weight),
                     (row_hi, col_lo, -weight), (row_lo, col_lo, weight)], x.shape, self._group, integral=True)
        return taps.gather(x), taps


def ps_roi_average_pooling_2d(x, rois, roi_indices, outsize, spatial_scale: float, group_size: int):
    """Position-sensitive RoI average pooling (R-FCN): each output bin averages its own channel group.

    RoI r, scaled by ``spatial_scale`` (no rounding; at least 0.1 long), is split into out_h x
    out_w bins; bin (p, q) covers rows [floor(p L_h / out_h + y0), ceil((p + 1) L_h / out_h + y0))
    (and columns alike), clipped to the image, and averages input channel (c * G + gh) * G + gw
    with gh = floor(p G / out_h), gw = floor(q G / out_w), G = ``group_size``. An empty bin gives 0.

    Parameters
    ----------
    x : Variable or array, shape (N, out_c * G * G, H, W), float32 or float64
    rois : array, shape (R, 4), x's dtype
        (y_min, x_min, y_max, x_max) in image coordinates.
    roi_indices : int array, shape (R,)
        The image of x each RoI belongs to.
    outsize : int, (out_h, out_w) or (out_c, out_h, out_w)
        ``o`` means (o, o); out_c, when given, is checked against x's channels.
    spatial_scale : float
        Factor from image to x's coordinates (e.g. 1/16).
    group_size : int
        G: the grid of position-sensitive channel groups.

    Returns
    -------
    Variable, shape (R, out_c, out_h, out_w), x's dtype
        Differentiable with respect to x.
    """
    return PSROIAveragePooling2D(outsize, spatial_scale, group_size).apply((x, rois, roi_indices))[0]
