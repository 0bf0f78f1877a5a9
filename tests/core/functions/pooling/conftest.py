"""Independent NumPy references of the RoI ops (float64 loops), shared by their tests as fixtures."""
import math
from fractions import Fraction

import numpy
import pytest


def _round(v):
    """Round half away from zero (C's ``round``)."""
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)


def _bins(start, end, out, size, inclusive):
    """(bin index, slice) of ``out`` bins over [start, end) or, ``inclusive`` (Fast R-CNN), [start, end]."""
    length = max(end - start + int(inclusive), 1)
    for p in range(out):
        lo = start + math.floor(Fraction(p * length, out))
        hi = start + math.ceil(Fraction((p + 1) * length, out))
        yield p, slice(min(max(lo, 0), size), min(max(hi, 0), size))


def _roi_pool(x, boxes, batch, outsize, scale, reduce, inclusive=False):
    """RoI pooling of ``x`` (N, C, H, W) over ``boxes`` (y_min, x_min, y_max, x_max) of samples ``batch``;
    ``inclusive`` counts the box's end pixels too (Fast R-CNN's roi_pooling_2d)."""
    out_h, out_w = outsize
    h, w = x.shape[2:]
    y = numpy.zeros((len(boxes), x.shape[1], out_h, out_w))
    for r, box in enumerate(boxes):
        y0, x0, y1, x1 = (_round(float(v) * scale) for v in box)
        for p, rows in _bins(y0, y1, out_h, h, inclusive):
            for q, cols in _bins(x0, x1, out_w, w, inclusive):
                block = x[int(batch[r]), :, rows, cols]
                if block.size:
                    y[r, :, p, q] = getattr(block, reduce)(axis=(1, 2))
    return y


def _bilinear(image, y, x):
    """Interpolated image (c, h, w) at (y, x); None outside [-1, h] x [-1, w] (Mask R-CNN's rule)."""
    h, w = image.shape[1:]
    if y < -1 or y > h or x < -1 or x > w:
        return None
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(math.floor(y)), int(math.floor(x))
    if y0 >= h - 1:
        y0 = y1 = h - 1
        y = float(y0)
    else:
        y1 = y0 + 1
    if x0 >= w - 1:
        x0 = x1 = w - 1
        x = float(x0)
    else:
        x1 = x0 + 1
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * image[:, y0, x0] + (1 - ly) * lx * image[:, y0, x1]
            + ly * (1 - lx) * image[:, y1, x0] + ly * lx * image[:, y1, x1])


def _roi_align(x, rois, roi_indices, outsize, scale, sampling_ratio, reduce):
    """RoI align: each bin's grid of bilinear samples, averaged over all of them ('mean', samples
    outside the image counting as zero) or maximized over those inside ('max', zero if none)."""
    out_h, out_w = outsize
    y = numpy.zeros((len(rois), x.shape[1], out_h, out_w))
    for r, box in enumerate(rois):
        y0, x0, y1, x1 = (float(v) * scale for v in box)
        bin_h, bin_w = max(y1 - y0, 1.0) / out_h, max(x1 - x0, 1.0) / out_w
        grid_h = sampling_ratio[0] or math.ceil(bin_h)
        grid_w = sampling_ratio[1] or math.ceil(bin_w)
        for p in range(out_h):
            for q in range(out_w):
                samples = [_bilinear(x[roi_indices[r]], y0 + p * bin_h + (i + 0.5) * bin_h / grid_h,
                                     x0 + q * bin_w + (j + 0.5) * bin_w / grid_w)
                           for i in range(grid_h) for j in range(grid_w)]
                inside = [v for v in samples if v is not None]
                if reduce == "mean":
                    y[r, :, p, q] = sum(inside, numpy.zeros(x.shape[1])) / (grid_h * grid_w)
                elif inside:
                    y[r, :, p, q] = numpy.max(inside, axis=0)
    return y


@pytest.fixture
def roi_pool_reference():
    """``f(x, boxes, batch, outsize, scale, reduce, inclusive=False)``: RoI pooling, 'mean' or 'max' bins."""
    return _roi_pool


@pytest.fixture
def roi_align_reference():
    """``f(x, rois, roi_indices, outsize, scale, sampling_ratio, reduce)``: RoI align, 'mean' or 'max'."""
    return _roi_align
