"""A loop-by-loop reference of the position-sensitive RoI ops (the definitions, written plainly) and the
ChainerCV fixture reader for the function tests."""
import importlib.util
import math
import pathlib

import numpy
import pytest

_spec = importlib.util.spec_from_file_location("vision_chainercv_npz",
                                               pathlib.Path(__file__).resolve().parents[1] / "chainercv_npz.py")
chainercv_npz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(chainercv_npz)


@pytest.fixture(scope="session")
def ps_roi_fixture():
    """tools/chainercv_fixtures/functions_ps_roi.py's output."""
    return chainercv_npz.Fixture("functions_ps_roi")


def _bilinear(img, y, x):
    """(value, [(row, col, weight)]) of a sample point, or None when it lies beyond [-1, size]."""
    h, w = img.shape
    if y < -1 or y > h or x < -1 or x > w:
        return None
    y, x = min(max(y, 0.0), h - 1.0), min(max(x, 0.0), w - 1.0)
    y0, x0 = min(int(math.floor(y)), h - 1), min(int(math.floor(x)), w - 1)
    terms = []
    for row, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
        for col, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
            if wy * wx > 0 and row < h and col < w:
                terms.append((row, col, wy * wx))
    return sum(img[r, c] * wt for r, c, wt in terms), terms


def ps_roi_reference(x, rois, roi_indices, out, spatial_scale, group, ratio, mode):
    """y (R, out_c, out_h, out_w) in float64; ``mode`` in 'average_pooling', 'max_pooling',
    'average_align', 'max_align'; ``ratio`` a pair of None or ints."""
    out_c, out_h, out_w = out
    h, w = x.shape[2:]
    y = numpy.zeros((len(rois), out_c, out_h, out_w))
    for r, (roi, n) in enumerate(zip(rois.astype(numpy.float64), roi_indices)):
        y0, x0, y1, x1 = roi * spatial_scale
        bin_h, bin_w = max(y1 - y0, 0.1) / out_h, max(x1 - x0, 0.1) / out_w
        for c in range(out_c):
            for p in range(out_h):
                for q in range(out_w):
                    gh, gw = min(p * group // out_h, group - 1), min(q * group // out_w, group - 1)
                    img = x[n, (c * group + gh) * group + gw]
                    if mode.endswith("pooling"):
                        rows = range(min(max(math.floor(p * bin_h + y0), 0), h), min(max(math.ceil((p + 1) * bin_h + y0), 0), h))
                        cols = range(min(max(math.floor(q * bin_w + x0), 0), w), min(max(math.ceil((q + 1) * bin_w + x0), 0), w))
                        values = [img[i, j] for i in rows for j in cols]
                        if mode == "average_pooling":
                            y[r, c, p, q] = numpy.mean(values) if values else 0.0
                        else:
                            y[r, c, p, q] = max(values) if values else -numpy.inf
                        continue
                    gy_, gx_ = (ratio[0] or math.ceil(bin_h)), (ratio[1] or math.ceil(bin_w))
                    samples = [_bilinear(img, y0 + p * bin_h + (i + .5) * bin_h / gy_,
                                         x0 + q * bin_w + (j + .5) * bin_w / gx_)
                               for i in range(gy_) for j in range(gx_)]
                    values = [s[0] for s in samples if s is not None]
                    if mode == "average_align":
                        y[r, c, p, q] = sum(values) / (gy_ * gx_)
                    else:
                        y[r, c, p, q] = max(values) if values else -numpy.inf
    return y


@pytest.fixture(scope="session")
def ps_roi_ref():
    return ps_roi_reference
