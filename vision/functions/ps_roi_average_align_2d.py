"""ps_roi_average_align_2d: position-sensitive RoIAlign, averaging bilinear samples."""
from kusari.vision.functions._ps_roi import PSROIOp, Taps, align_axis


class PSROIAverageAlign2D(PSROIOp):
    """Mean of each bin's bilinear samples, as taps over every (row, column) pair of interpolated
    pixels; samples that fall outside the image add 0 but still count."""

    _fname = "ps_roi_average_align_2d"
    _align = True

    def _taps(self, x, rois, roi_indices):
        h, w = x.shape[2:]
        iy, wy, _ = align_axis(rois, self._scale, 0, self._out_h, h, self._ratio[0], average=True)
        ix, wx, _ = align_axis(rois, self._scale, 1, self._out_w, w, self._ratio[1], average=True)
        r, out_h = iy.shape[:2]
        out_w = ix.shape[1]
        # every (sample, interpolated row) pair along y with every one along x
        iy, wy = iy.reshape(r, out_h, 1, -1), wy.reshape(r, out_h, 1, -1)
        ix, wx = ix.reshape(r, 1, out_w, -1), wx.reshape(r, 1, out_w, -1)
        taps = Taps(self._offsets(x, roi_indices),
                    [(iy[..., a], ix[..., b], wy[..., a] * wx[..., b])
                     for a in range(iy.shape[-1]) for b in range(ix.shape[-1])], x.shape, self._group)
        return taps.gather(x), taps


def ps_roi_average_align_2d(x, rois, roi_indices, outsize, spatial_scale: float, group_size: int,
                            sampling_ratio=None):
    """Position-sensitive RoIAlign with averaging: each output bin is the mean of bilinear samples of
    its own channel group.

    RoI r, scaled by ``spatial_scale`` (at least 0.1 long), is split into out_h x out_w bins; bin
    (p, q) samples g_h x g_w points on a regular grid (g = ``sampling_ratio``, or ceil(bin size)
    when None), interpolates input channel (c * G + gh) * G + gw bilinearly at each (gh = floor(p G
    / out_h), gw = floor(q G / out_w)) and divides the sum by g_h * g_w; points more than one pixel
    outside the image add 0.

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
        Sample points per bin along (y, x).

    Returns
    -------
    Variable, shape (R, out_c, out_h, out_w), x's dtype
        Differentiable with respect to x.
    """
    return PSROIAverageAlign2D(outsize, spatial_scale, group_size, sampling_ratio).apply(
        (x, rois, roi_indices))[0]
