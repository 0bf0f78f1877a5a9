
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
class TestROIAverageAlign2D(testing.FunctionTestCase):
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
        return F.roi_average_align_2d(x, ROIS.astype(x.dtype), ROI_INDICES, self.outsize, 0.6,
                                      self.sampling_ratio),

    def forward_expected(self, inputs):
        x, = inputs
        y = self.reference(x.astype(numpy.float64), ROIS, ROI_INDICES, self.out, 0.6, self.ratio, "mean")
        return y.astype(self.dtype),


def test_constant_image_inside_the_box_averages_to_the_constant():
    x = numpy.full((1, 2, 8, 8), 3.0)
    y = F.roi_average_align_2d(x, numpy.array([[1.0, 1.5, 6.0, 6.5]]), numpy.array([0]), 3, 1.0, 2)
    numpy.testing.assert_allclose(y.array, numpy.full((1, 2, 3, 3), 3.0))


def test_gradient_of_a_single_sample_is_its_bilinear_weights():
    x = kusari.Variable(numpy.zeros((1, 1, 4, 4)))
    # one bin, one sample at the box centre (1.75, 1.5)
    y = F.roi_average_align_2d(x, numpy.array([[1.25, 1.0, 2.25, 2.0]]), numpy.array([0]), 1, 1.0, 1)
    y.backward()
    expected = numpy.zeros((4, 4))
    expected[1:3, 1:3] = [[0.25 * 0.5, 0.25 * 0.5], [0.75 * 0.5, 0.75 * 0.5]]
    numpy.testing.assert_allclose(x.grad[0, 0], expected)


def test_bad_sampling_ratio_rejected():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"roi_average_align_2d: sampling_ratio must be None, an int >= 1 "
                                         r"or a pair of them, got 0"):
        F.roi_average_align_2d(x, numpy.zeros((1, 4), numpy.float32), numpy.zeros(1, numpy.int32), 2, 1.0, 0)


def test_roi_indices_out_of_range_rejected():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"roi_average_align_2d: roi_indices must lie in \[0, 1\)"):
        F.roi_average_align_2d(x, numpy.zeros((1, 4), numpy.float32), numpy.array([-1]), 2, 1.0)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_rois_of_many_sizes_in_many_chunks(monkeypatch, roi_align_reference, dtype):
    # the op gathers each RoI's window of x in chunks of RoIs of similar size; a small chunk budget
    # makes one chunk per few RoIs, whose windows differ in size and reach every border
    from kusari.functions.pooling import _roi
    monkeypatch.setattr(_roi, "_CHUNK_ELEMENTS", 200)
    rng = numpy.random.default_rng(3)
    x = rng.uniform(-1, 1, (3, 2, 11, 13)).astype(dtype)
    start = rng.uniform(-6, 20, (25, 2))
    size = rng.uniform(0.2, 14, (25, 2)) * rng.choice([0.3, 1, 3], (25, 1))
    rois = numpy.concatenate([start, start + size], axis=1)
    roi_indices = rng.integers(0, 3, 25).astype(numpy.int32)
    y = F.roi_average_align_2d(x, rois.astype(dtype), roi_indices, (3, 4), 0.7, 2)
    expected = roi_align_reference(x.astype(numpy.float64), rois, roi_indices, (3, 4), 0.7, (2, 2), "mean")
    testing.assert_allclose(y.array, expected.astype(dtype), **testing.tolerance(dtype, "forward"))
    gy = rng.uniform(-1, 1, y.shape).astype(dtype)
    ggx = rng.uniform(-1, 1, x.shape).astype(dtype)

    def f(x):
        return F.roi_average_align_2d(x, rois.astype(x.dtype), roi_indices, (3, 4), 0.7, 2)

    kusari.gradient_check.check_backward(f, x, gy, dtype=numpy.float64, atol=1e-3, rtol=1e-3)
    kusari.gradient_check.check_double_backward(f, x, gy, ggx, dtype=numpy.float64, atol=1e-3, rtol=1e-3)


def test_no_roi_gives_an_empty_output_and_a_zero_gradient():
    x = kusari.Variable(numpy.ones((1, 3, 4, 4), numpy.float32))
    y = F.roi_average_align_2d(x, numpy.zeros((0, 4), numpy.float32), numpy.zeros(0, numpy.int32), (2, 3), 1.0)
    assert y.shape == (0, 3, 2, 3) and y.dtype == numpy.float32
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros((1, 3, 4, 4), numpy.float32))
