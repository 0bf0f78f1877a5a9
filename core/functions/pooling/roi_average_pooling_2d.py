"""roi_average_pooling_2d: mean over integer bins of each region of interest (ChainerCV box order)."""
from kusari.functions.pooling import _roi


class ROIAveragePooling2D(_roi.BinAxes, _roi.RoIAverage):
    _fname = "roi_average_pooling_2d"


def roi_average_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """RoI average pooling: as ``roi_max_pooling_2d`` but each bin gives the mean of its elements.

    x: (n, c, h, w); rois: (R, 4) as (y_min, x_min, y_max, x_max); roi_indices: (R,) integers;
    outsize: int or (out_h, out_w). Returns (R, c, out_h, out_w), 0 for a bin outside x.
    """
    return ROIAveragePooling2D(outsize, spatial_scale).apply((x, rois, roi_indices))[0]
