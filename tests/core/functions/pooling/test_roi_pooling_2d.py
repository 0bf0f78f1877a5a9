import math
from fractions import Fraction

import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing

# (batch_index, x_min, y_min, x_max, y_max) in image coordinates; with spatial_scale 0.6 on a
# 12 x 10 map: inside, partly outside, tiny (x_max < x_min), entirely outside.
ROIS = numpy.array([[0, 2.1, 1.3, 12.2, 14.7], [1, -3.3, -4.1, 6.1, 9.2],
                    [1, 7.7, 5.5, 7.2, 5.9], [0, 30.0, 25.0, 45.0, 40.0]])


def _round(v):
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)


def _bins(start, end, out, size):
    # Fast R-CNN counts both box ends
    length = max(end - start + 1, 1)
    for p in range(out):
        lo = start + math.floor(Fraction(p * length, out))
        hi = start + math.ceil(Fraction((p + 1) * length, out))
        yield p, slice(min(max(lo, 0), size), min(max(hi, 0), size))


def _reference(x, rois, outh, outw, scale):
    h, w = x.shape[2:]
    y = numpy.zeros((len(rois), x.shape[1], outh, outw))
    for r, (n, *box) in enumerate(rois):
        x0, y0, x1, y1 = (_round(float(v) * scale) for v in box)
        for p, rows in _bins(y0, y1, outh, h):
            for q, cols in _bins(x0, x1, outw, w):
                block = x[int(n), :, rows, cols]
                if block.size:
                    y[r, :, p, q] = block.max(axis=(1, 2))
    return y


@testing.parameterize(*testing.product({
    "out": [(3, 2), (4, 4)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestROIPooling2D(testing.FunctionTestCase):
    def generate_inputs(self):
        # A permutation: no ties, so the argmax is stable under the numerical-gradient probes.
        x = numpy.random.permutation(2 * 3 * 12 * 10).reshape(2, 3, 12, 10)
        return (x / x.size * 2 - 1).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.roi_pooling_2d(x, ROIS.astype(x.dtype), *self.out, 0.6),

    def forward_expected(self, inputs):
        x, = inputs
        return _reference(x.astype(numpy.float64), ROIS, *self.out, 0.6).astype(self.dtype),


def test_box_ends_are_included():
    x = kusari.Variable(numpy.arange(16, dtype=numpy.float64).reshape(1, 1, 4, 4))
    # x 0..1 and y 0..2 inclusive: a 3 x 2 box
    y = F.roi_pooling_2d(x, numpy.array([[0.0, 0.0, 0.0, 1.0, 2.0]]), 1, 1, 1.0)
    assert y.array[0, 0, 0, 0] == 9.0
    y.backward()
    expected = numpy.zeros((4, 4))
    expected[2, 1] = 1.0
    numpy.testing.assert_array_equal(x.grad[0, 0], expected)


def test_bad_rois_shape_rejected():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"roi_pooling_2d: rois must have shape \(R, 5\) .* got \(1, 4\)"):
        F.roi_pooling_2d(x, numpy.zeros((1, 4), numpy.float32), 2, 2, 1.0)


def test_batch_index_out_of_range_rejected():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"roi_pooling_2d: rois\[:, 0\] must lie in \[0, 1\)"):
        F.roi_pooling_2d(x, numpy.array([[1, 0, 0, 2, 2]], numpy.float32), 2, 2, 1.0)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="roi_pooling_2d: x must be a floating-point array"):
        F.roi_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.int32), numpy.zeros((1, 5), numpy.float32),
                         2, 2, 1.0)
