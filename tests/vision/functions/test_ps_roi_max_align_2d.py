import numpy
import pytest

import kusari
from kusari import testing
from kusari.vision.functions import ps_roi_max_align_2d

ROIS = numpy.array([[1.3, 2.1, 9.7, 12.2], [-1.1, -1.3, 13.2, 11.1], [5.5, 4.7, 5.6, 5.3], [2.6, 7.3, 11.1, 9.9]])
ROI_INDICES = numpy.array([0, 1, 1, 1], numpy.int32)


def distinct_values(shape, dtype):
    return (numpy.random.permutation(int(numpy.prod(shape))).reshape(shape) * 0.05 - 1).astype(dtype)


@testing.parameterize(*testing.product({
    "outsize": [(2, 3, 3), (4, 3)],
    "group_size": [1, 2],
    "sampling_ratio": [None, 2, (1, 3)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestPSROIMaxAlign2D(testing.FunctionTestCase):
    check_backward_options = {"eps": 1e-3, "atol": 1e-3, "rtol": 1e-3}

    @pytest.fixture(autouse=True)
    def _reference(self, ps_roi_ref):
        self.reference = ps_roi_ref

    def setup(self):
        self.out = self.outsize if len(self.outsize) == 3 else (2,) + self.outsize
        ratio = self.sampling_ratio
        self.ratio = ratio if isinstance(ratio, tuple) else (ratio, ratio)

    def generate_inputs(self):
        return distinct_values((2, self.out[0] * self.group_size ** 2, 7, 8), self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return ps_roi_max_align_2d(x, ROIS.astype(x.dtype), ROI_INDICES, self.outsize, 0.6, self.group_size,
                                   self.sampling_ratio),

    def forward_expected(self, inputs):
        x, = inputs
        y = self.reference(x.astype(numpy.float64), ROIS, ROI_INDICES, self.out, 0.6, self.group_size, self.ratio,
                           "max_align")
        return y.astype(self.dtype),


@pytest.mark.parametrize("case", ["max_align", "max_align_ratio2", "max_align_ratio13"])
def test_matches_chainercv(ps_roi_fixture, case):
    f = lambda key: ps_roi_fixture[f"{case}/{key}"]  # noqa: E731
    outsize = tuple(int(v) for v in f("outsize"))
    ratio = f("sampling_ratio")
    x = kusari.Variable(f("x"))
    y = ps_roi_max_align_2d(x, f("rois"), f("roi_indices"), outsize[0] if len(outsize) == 1 else outsize,
                            float(f("spatial_scale")), int(f("group_size")),
                            None if ratio[0] < 0 else tuple(int(r) for r in ratio))
    finite = numpy.isfinite(f("y"))
    numpy.testing.assert_array_equal(numpy.isfinite(y.array), finite)
    numpy.testing.assert_allclose(y.array[finite], f("y")[finite], rtol=1e-6, atol=1e-6)
    y.grad = f("gy")
    y.backward()
    numpy.testing.assert_allclose(x.grad, f("gx"), rtol=1e-6, atol=1e-6)


def test_picks_the_largest_sample():
    x = numpy.zeros((1, 1, 4, 4))
    x[0, 0, 2, 1] = 8.0
    # one bin, 2 x 2 samples at rows and columns 0.75 and 2.25
    y = ps_roi_max_align_2d(x, numpy.array([[0.0, 0.0, 3.0, 3.0]]), numpy.zeros(1, numpy.int32), 1, 1.0, 1, 2)
    assert y.array[0, 0, 0, 0] == pytest.approx(8.0 * 0.75 * 0.75)
