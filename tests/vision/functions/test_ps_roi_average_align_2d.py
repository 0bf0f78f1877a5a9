import numpy
import pytest

import kusari
from kusari import testing
from kusari.vision.functions import ps_roi_average_align_2d

ROIS = numpy.array([[1.3, 2.1, 9.7, 12.2], [-4.1, -3.3, 13.2, 11.1], [5.5, 4.7, 5.6, 5.3],
                    [15.0, 18.0, 20.0, 25.0], [2.6, 7.3, 11.1, 9.9]])
ROI_INDICES = numpy.array([0, 1, 1, 0, 1], numpy.int32)


@testing.parameterize(*testing.product({
    "outsize": [(2, 3, 3), (4, 3)],
    "group_size": [1, 2],
    "sampling_ratio": [None, 2, (1, 3)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestPSROIAverageAlign2D(testing.FunctionTestCase):
    @pytest.fixture(autouse=True)
    def _reference(self, ps_roi_ref):
        self.reference = ps_roi_ref

    def setup(self):
        self.out = self.outsize if len(self.outsize) == 3 else (2,) + self.outsize
        ratio = self.sampling_ratio
        self.ratio = ratio if isinstance(ratio, tuple) else (ratio, ratio)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, self.out[0] * self.group_size ** 2, 7, 8)).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return ps_roi_average_align_2d(x, ROIS.astype(x.dtype), ROI_INDICES, self.outsize, 0.6, self.group_size,
                                       self.sampling_ratio),

    def forward_expected(self, inputs):
        x, = inputs
        y = self.reference(x.astype(numpy.float64), ROIS, ROI_INDICES, self.out, 0.6, self.group_size, self.ratio,
                           "average_align")
        return y.astype(self.dtype),


@pytest.mark.parametrize("case", ["average_align", "average_align_ratio2", "average_align_ratio13"])
def test_matches_chainercv(ps_roi_fixture, case):
    f = lambda key: ps_roi_fixture[f"{case}/{key}"]  # noqa: E731
    outsize = tuple(int(v) for v in f("outsize"))
    ratio = f("sampling_ratio")
    x = kusari.Variable(f("x"))
    y = ps_roi_average_align_2d(x, f("rois"), f("roi_indices"), outsize[0] if len(outsize) == 1 else outsize,
                                float(f("spatial_scale")), int(f("group_size")),
                                None if ratio[0] < 0 else tuple(int(r) for r in ratio))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, f("y"), rtol=1e-6, atol=1e-6)
    y.grad = f("gy")
    y.backward()
    numpy.testing.assert_allclose(x.grad, f("gx"), rtol=1e-6, atol=1e-6)


def test_constant_map_inside_the_image_averages_to_the_constant():
    x = numpy.full((1, 4, 8, 8), 2.5)
    y = ps_roi_average_align_2d(x, numpy.array([[1.0, 1.5, 6.0, 6.5]]), numpy.zeros(1, numpy.int32), 3, 1.0, 2, 2)
    numpy.testing.assert_allclose(y.array, numpy.full((1, 1, 3, 3), 2.5))


def test_bad_sampling_ratio():
    x = numpy.zeros((1, 4, 5, 5), numpy.float32)
    with pytest.raises(ValueError, match=r"ps_roi_average_align_2d: sampling_ratio must be None, an int >= 1 or a "
                                         r"pair of them, got 0"):
        ps_roi_average_align_2d(x, numpy.zeros((1, 4), numpy.float32), numpy.zeros(1, numpy.int32), 2, 1.0, 2, 0)
