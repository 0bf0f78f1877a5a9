"""roi_max_align_2d: max over bilinear samples of each RoI bin (RoIAlign, ChainerCV box order)."""
from kusari.functions.pooling import _roi


class ROIMaxAlign2D(_roi.AlignAxes, _roi.RoIMax):
    _fname = "roi_max_align_2d"


def roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale, sampling_ratio=None):
    """RoIAlign with max: each bin gives the largest of its bilinearly interpolated sample points.

    x: (n, c, h, w); rois: (R, 4) as (y_min, x_min, y_max, x_max), of x's dtype, scaled by
    ``spatial_scale`` without rounding; roi_indices: (R,) integers; outsize: int or (out_h, out_w);
    sampling_ratio: points per bin along each axis (int or pair; None: ceil(bin size)). Returns
    (R, c, out_h, out_w); a bin whose samples all fall outside x gives 0.
    """
    return ROIMaxAlign2D(outsize, spatial_scale, sampling_ratio).apply((x, rois, roi_indices))[0]
