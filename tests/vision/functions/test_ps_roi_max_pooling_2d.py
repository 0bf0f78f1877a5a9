import numpy
import pytest

import kusari
from kusari import testing
from kusari.vision.functions import ps_roi_max_pooling_2d

# every RoI overlaps the 7 x 8 map (spatial_scale 0.6), so no bin is empty and the max is differentiable
ROIS = numpy.array([[1.3, 2.1, 9.7, 12.2], [-1.1, -1.3, 13.2, 11.1], [5.5, 4.7, 5.6, 5.3], [2.6, 7.3, 11.1, 9.9]])
ROI_INDICES = numpy.array([0, 1, 1, 1], numpy.int32)


def distinct_values(shape, dtype):
    """Values at least 0.05 apart, so that a numerical derivative never crosses a tie."""
    return (numpy.random.permutation(int(numpy.prod(shape))).reshape(shape) * 0.05 - 1).astype(dtype)


@testing.parameterize(*testing.product({
    "outsize": [(2, 3, 3), (4, 3)],
    "group_size": [1, 2],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestPSROIMaxPooling2D(testing.FunctionTestCase):
    skip_double_backward_test = False
    check_backward_options = {"eps": 1e-3, "atol": 1e-3, "rtol": 1e-3}

    @pytest.fixture(autouse=True)
    def _reference(self, ps_roi_ref):
        self.reference = ps_roi_ref

    def setup(self):
        self.out = self.outsize if len(self.outsize) == 3 else (2,) + self.outsize

    def generate_inputs(self):
        return distinct_values((2, self.out[0] * self.group_size ** 2, 7, 8), self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return ps_roi_max_pooling_2d(x, ROIS.astype(x.dtype), ROI_INDICES, self.outsize, 0.6, self.group_size),

    def forward_expected(self, inputs):
        x, = inputs
        y = self.reference(x.astype(numpy.float64), ROIS, ROI_INDICES, self.out, 0.6, self.group_size,
                           (None, None), "max_pooling")
        return y.astype(self.dtype),


@pytest.mark.parametrize("case", ["max_pooling", "max_pooling_rect"])
def test_matches_chainercv(ps_roi_fixture, case):
    f = lambda key: ps_roi_fixture[f"{case}/{key}"]  # noqa: E731
    x = kusari.Variable(f("x"))
    y = ps_roi_max_pooling_2d(x, f("rois"), f("roi_indices"), tuple(int(v) for v in f("outsize")),
                              float(f("spatial_scale")), int(f("group_size")))
    numpy.testing.assert_array_equal(y.array, f("y"))        # -inf in bins outside the map, as ChainerCV
    assert numpy.isinf(f("y")).any()
    y.grad = f("gy")
    y.backward()
    numpy.testing.assert_allclose(x.grad, f("gx"), rtol=1e-6, atol=1e-6)


def test_gradient_goes_to_the_largest_element_only():
    x = kusari.Variable(numpy.zeros((1, 1, 4, 4)))
    x.array[0, 0, 2, 1] = 5.0
    x.array[0, 0, 3, 3] = 9.0                                   # outside the RoI
    y = ps_roi_max_pooling_2d(x, numpy.array([[0.0, 0.0, 3.0, 3.0]]), numpy.zeros(1, numpy.int32), 1, 1.0, 1)
    assert y.array[0, 0, 0, 0] == 5.0
    y.grad = numpy.full((1, 1, 1, 1), 2.0)
    y.backward()
    expected = numpy.zeros((4, 4))
    expected[2, 1] = 2.0
    numpy.testing.assert_array_equal(x.grad[0, 0], expected)
