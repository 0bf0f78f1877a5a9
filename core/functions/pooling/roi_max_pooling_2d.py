"""roi_max_pooling_2d: max over integer bins of each region of interest (ChainerCV box order)."""
from kusari.functions.pooling import _roi


class ROIMaxPooling2D(_roi.BinAxes, _roi.RoIMax):
    _fname = "roi_max_pooling_2d"


def roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """RoI max pooling.

    x: (n, c, h, w); rois: (R, 4) boxes (y_min, x_min, y_max, x_max) in the coordinates of the
    image that x was computed from, of x's dtype; roi_indices: (R,) integer image index of each
    box; outsize: int or (out_h, out_w); spatial_scale: x's size over the image's. Each scaled and
    rounded box (at least 1x1) is split into out_h x out_w integer bins; returns their maxima,
    (R, c, out_h, out_w), 0 for a bin that falls outside x.
    """
    return ROIMaxPooling2D(outsize, spatial_scale).apply((x, rois, roi_indices))[0]
