
import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing

# (y_min, x_min, y_max, x_max) in image coordinates; with spatial_scale 0.6 on a 12 x 10 map:
# inside, partly outside, tiny (y_max < y_min after rounding), entirely outside.
ROIS = numpy.array([[1.3, 2.1, 14.7, 12.2], [-4.1, -3.3, 9.2, 6.1],
                    [5.5, 7.7, 5.2, 8.3], [25.0, 30.0, 40.0, 45.0]])
ROI_INDICES = numpy.array([0, 1, 1, 0], numpy.int32)








@testing.parameterize(*testing.product({
    "outsize": [(3, 2), 4],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestROIAveragePooling2D(testing.FunctionTestCase):
    @pytest.fixture(autouse=True)
    def _reference(self, roi_pool_reference):
        self.reference = roi_pool_reference

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 12, 10)).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.roi_average_pooling_2d(x, ROIS.astype(x.dtype), ROI_INDICES, self.outsize, 0.6),

    def forward_expected(self, inputs):
        x, = inputs
        outsize = self.outsize if isinstance(self.outsize, tuple) else (self.outsize,) * 2
        return self.reference(x.astype(numpy.float64), ROIS, ROI_INDICES, outsize, 0.6, "mean").astype(self.dtype),


def test_gradient_is_spread_over_each_bin():
    x = kusari.Variable(numpy.zeros((2, 1, 4, 4)))
    y = F.roi_average_pooling_2d(x, numpy.array([[0.0, 0.0, 2.0, 4.0]]), numpy.array([1]), (1, 2), 1.0)
    y.grad = numpy.array([[[[4.0, 8.0]]]])
    y.backward()
    expected = numpy.zeros((2, 1, 4, 4))
    expected[1, 0, :2, :2] = 1.0
    expected[1, 0, :2, 2:] = 2.0
    numpy.testing.assert_array_equal(x.grad, expected)


def test_rois_dtype_mismatch_rejected():
    x = numpy.zeros((1, 1, 4, 4), numpy.float64)
    with pytest.raises(TypeError, match=r"roi_average_pooling_2d: dtypes must match \(x.dtype=float64, "
                                        r"rois.dtype=float32\)"):
        F.roi_average_pooling_2d(x, numpy.zeros((1, 4), numpy.float32), numpy.zeros(1, numpy.int32), 2, 1.0)


def test_bad_outsize_rejected():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"roi_average_pooling_2d: outsize must be a positive int or a pair "
                                         r"of them, got \(1, 2, 3\)"):
        F.roi_average_pooling_2d(x, numpy.zeros((1, 4), numpy.float32), numpy.zeros(1, numpy.int32),
                                 (1, 2, 3), 1.0)
