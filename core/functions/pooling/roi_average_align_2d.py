"""roi_average_align_2d: mean of bilinear samples of each RoI bin (RoIAlign, ChainerCV box order)."""
from kusari.functions.pooling import _roi


class ROIAverageAlign2D(_roi.AlignAxes, _roi.RoIAverage):
    _fname = "roi_average_align_2d"


def roi_average_align_2d(x, rois, roi_indices, outsize, spatial_scale, sampling_ratio=None):
    """RoIAlign (Mask R-CNN): each bin gives the mean of its bilinearly interpolated sample points.

    x: (n, c, h, w); rois: (R, 4) as (y_min, x_min, y_max, x_max), of x's dtype, scaled by
    ``spatial_scale`` without rounding; roi_indices: (R,) integers; outsize: int or (out_h, out_w);
    sampling_ratio: points per bin along each axis (int or pair; None: ceil(bin size)); points
    outside x count as 0. Returns (R, c, out_h, out_w).
    """
    return ROIAverageAlign2D(outsize, spatial_scale, sampling_ratio).apply((x, rois, roi_indices))[0]
