"""roi_pooling_2d: Fast R-CNN RoI max pooling; rois are (batch_index, x_min, y_min, x_max, y_max)."""
import numpy

from kusari import utils
from kusari.functions.pooling import _roi


class ROIPooling2D(_roi.BinAxes, _roi.RoIMax):
    _fname = "roi_pooling_2d"
    _plus_one = True

    def _parse(self, inputs):
        fname = self._fname
        if len(inputs) != 2:
            raise TypeError(f"{fname}: expected inputs (x, rois), got {len(inputs)} inputs")
        x, rois = inputs
        _roi.check_image(fname, x)
        utils.check_float(fname, "rois", rois)
        utils.check_same_dtype(fname, x=x, rois=rois)
        if rois.ndim != 2 or rois.shape[1] != 5:
            raise ValueError(f"{fname}: rois must have shape (R, 5) as (batch_index, x_min, y_min, "
                             f"x_max, y_max), got {tuple(rois.shape)}")
        batch = rois[:, 0].astype(int)
        _roi.check_batch_indices(fname, "rois[:, 0]", batch, rois.shape[0], x.shape[0])
        boxes = rois[:, [2, 1, 4, 3]].astype(numpy.float64) * self._scale
        return x, boxes, batch


def roi_pooling_2d(x, rois, outh, outw, spatial_scale):
    """Fast R-CNN RoI max pooling.

    x: (n, c, h, w); rois: (R, 5) rows (batch_index, x_min, y_min, x_max, y_max) of x's dtype, in
    the coordinates of the image x was computed from; spatial_scale: x's size over the image's.
    Each scaled, rounded box (ends included) is split into outh x outw integer bins; returns their
    maxima, (R, c, outh, outw), 0 for a bin that falls outside x.
    """
    return ROIPooling2D((outh, outw), spatial_scale).apply((x, rois))[0]
