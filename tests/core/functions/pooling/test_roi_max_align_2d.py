
import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing

# (y_min, x_min, y_max, x_max) in image coordinates; with spatial_scale 0.6 on a 7 x 6 map:
# inside, reaching past the border, tiny, entirely outside.
ROIS = numpy.array([[1.3, 2.1, 9.7, 8.2], [-4.1, -3.3, 13.2, 11.1],
                    [5.5, 4.7, 5.2, 5.3], [15.0, 18.0, 20.0, 25.0]])
ROI_INDICES = numpy.array([0, 1, 1, 0], numpy.int32)






@testing.parameterize(*testing.product({
    "outsize": [(3, 2), 2],
    "sampling_ratio": [None, 2, (1, 3)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestROIMaxAlign2D(testing.FunctionTestCase):
    @pytest.fixture(autouse=True)
    def _reference(self, roi_align_reference):
        self.reference = roi_align_reference

    def setup(self):
        self.out = self.outsize if isinstance(self.outsize, tuple) else (self.outsize,) * 2
        ratio = self.sampling_ratio
        self.ratio = ratio if isinstance(ratio, tuple) else (ratio, ratio)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 7, 6)).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.roi_max_align_2d(x, ROIS.astype(x.dtype), ROI_INDICES, self.outsize, 0.6,
                                      self.sampling_ratio),

    def forward_expected(self, inputs):
        x, = inputs
        y = self.reference(x.astype(numpy.float64), ROIS, ROI_INDICES, self.out, 0.6, self.ratio, "max")
        return y.astype(self.dtype),


def test_picks_the_largest_sample():
    x = numpy.zeros((1, 1, 4, 4))
    x[0, 0, 2, 1] = 8.0
    # one bin with 2 x 2 samples at rows 0.75, 2.25 and columns 0.75, 2.25
    y = F.roi_max_align_2d(x, numpy.array([[0.0, 0.0, 3.0, 3.0]]), numpy.array([0]), 1, 1.0, 2)
    assert y.array[0, 0, 0, 0] == pytest.approx(8.0 * 0.75 * 0.75)


def test_gradient_goes_to_the_chosen_sample_only():
    x = kusari.Variable(numpy.zeros((1, 1, 4, 4)))
    x.array[0, 0, 2, 1] = 8.0
    y = F.roi_max_align_2d(x, numpy.array([[0.0, 0.0, 3.0, 3.0]]), numpy.array([0]), 1, 1.0, 2)
    y.backward()
    expected = numpy.zeros((4, 4))
    expected[2:4, 0:2] = [[0.75 * 0.25, 0.75 * 0.75], [0.25 * 0.25, 0.25 * 0.75]]
    numpy.testing.assert_allclose(x.grad[0, 0], expected)


def test_bins_without_samples_give_zero():
    x = numpy.ones((1, 1, 4, 4), numpy.float32)
    y = F.roi_max_align_2d(x, numpy.array([[10.0, 10.0, 12.0, 12.0]], numpy.float32),
                           numpy.array([0]), 2, 1.0)
    numpy.testing.assert_array_equal(y.array, numpy.zeros((1, 1, 2, 2)))


def test_bad_sampling_ratio_rejected():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"roi_max_align_2d: sampling_ratio must be None, an int >= 1 "
                                         r"or a pair of them, got 0"):
        F.roi_max_align_2d(x, numpy.zeros((1, 4), numpy.float32), numpy.zeros(1, numpy.int32), 2, 1.0, 0)


def test_roi_indices_out_of_range_rejected():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"roi_max_align_2d: roi_indices must lie in \[0, 1\)"):
        F.roi_max_align_2d(x, numpy.zeros((1, 4), numpy.float32), numpy.array([-1]), 2, 1.0)
