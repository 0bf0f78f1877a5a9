
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
class TestROIMaxPooling2D(testing.FunctionTestCase):
    @pytest.fixture(autouse=True)
    def _reference(self, roi_pool_reference):
        self.reference = roi_pool_reference

    def generate_inputs(self):
        # A permutation: no ties, so the argmax is stable under the numerical-gradient probes.
        x = numpy.random.permutation(2 * 3 * 12 * 10).reshape(2, 3, 12, 10)
        return (x / x.size * 2 - 1).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.roi_max_pooling_2d(x, ROIS.astype(x.dtype), ROI_INDICES, self.outsize, 0.6),

    def forward_expected(self, inputs):
        x, = inputs
        outsize = self.outsize if isinstance(self.outsize, tuple) else (self.outsize,) * 2
        return self.reference(x.astype(numpy.float64), ROIS, ROI_INDICES, outsize, 0.6, "max").astype(self.dtype),


def test_gradient_reaches_each_bin_maximum():
    x = kusari.Variable(numpy.arange(16, dtype=numpy.float64).reshape(1, 1, 4, 4))
    y = F.roi_max_pooling_2d(x, numpy.array([[0.0, 0.0, 4.0, 4.0]]), numpy.array([0]), 2, 1.0)
    numpy.testing.assert_array_equal(y.array[0, 0], [[5, 7], [13, 15]])
    y.grad = numpy.ones_like(y.array)
    y.backward()
    expected = numpy.zeros((4, 4))
    expected[1::2, 1::2] = 1
    numpy.testing.assert_array_equal(x.grad[0, 0], expected)


def _args(**kw):
    args = {"x": numpy.zeros((2, 3, 6, 6), numpy.float32),
            "rois": numpy.zeros((2, 4), numpy.float32),
            "roi_indices": numpy.array([0, 1], numpy.int32), "outsize": 2, "spatial_scale": 1.0}
    args.update(kw)
    return args


@pytest.mark.parametrize("kwargs, error, message", [
    ({"x": numpy.zeros((2, 3, 6, 6), numpy.int32)}, TypeError,
     "roi_max_pooling_2d: x must be a floating-point array"),
    ({"x": numpy.zeros((3, 6, 6), numpy.float32)}, ValueError,
     "roi_max_pooling_2d: x must be 4-dimensional, got 3"),
    ({"rois": numpy.zeros((2, 4), numpy.float64)}, TypeError,
     r"roi_max_pooling_2d: dtypes must match \(x.dtype=float32, rois.dtype=float64\)"),
    ({"rois": numpy.zeros((2, 4), numpy.int32)}, TypeError,
     "roi_max_pooling_2d: rois must be a floating-point array"),
    ({"rois": numpy.zeros((2, 5), numpy.float32)}, ValueError,
     r"roi_max_pooling_2d: rois must have shape \(R, 4\) .* got \(2, 5\)"),
    ({"roi_indices": numpy.zeros(2, numpy.float32)}, TypeError,
     "roi_max_pooling_2d: roi_indices must be an integer array, got dtype float32"),
    ({"roi_indices": numpy.zeros(3, numpy.int32)}, ValueError,
     r"roi_max_pooling_2d: roi_indices.shape=\(3,\) does not match the number of RoIs \(2,\)"),
    ({"roi_indices": numpy.array([0, 2], numpy.int32)}, ValueError,
     r"roi_max_pooling_2d: roi_indices must lie in \[0, 2\) \(x.shape\[0\]=2\), got values in \[0, 2\]"),
    ({"outsize": (2, 0)}, ValueError,
     r"roi_max_pooling_2d: outsize must be a positive int or a pair of them, got \(2, 0\)"),
    ({"spatial_scale": -0.5}, ValueError,
     "roi_max_pooling_2d: spatial_scale must be a positive number, got -0.5"),
])
def test_bad_arguments_rejected(kwargs, error, message):
    with pytest.raises(error, match=message):
        F.roi_max_pooling_2d(**_args(**kwargs))
