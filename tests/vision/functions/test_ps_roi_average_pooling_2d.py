import numpy
import pytest

import kusari
from kusari import testing
from kusari.vision.functions import ps_roi_average_pooling_2d

# image coordinates; with spatial_scale 0.6 on a 7 x 8 map: inside, past the border, tiny, outside
ROIS = numpy.array([[1.3, 2.1, 9.7, 12.2], [-4.1, -3.3, 13.2, 11.1], [5.5, 4.7, 5.6, 5.3],
                    [15.0, 18.0, 20.0, 25.0], [2.6, 7.3, 11.1, 9.9]])
ROI_INDICES = numpy.array([0, 1, 1, 0, 1], numpy.int32)


@testing.parameterize(*testing.product({
    "outsize": [(2, 3, 3), (4, 3), 2],
    "group_size": [1, 2],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestPSROIAveragePooling2D(testing.FunctionTestCase):
    @pytest.fixture(autouse=True)
    def _reference(self, ps_roi_ref):
        self.reference = ps_roi_ref

    def setup(self):
        size = self.outsize if isinstance(self.outsize, tuple) else (self.outsize,) * 2
        self.out = size if len(size) == 3 else (2,) + size
        self.channels = self.out[0] * self.group_size ** 2

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, self.channels, 7, 8)).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return ps_roi_average_pooling_2d(x, ROIS.astype(x.dtype), ROI_INDICES, self.outsize, 0.6, self.group_size),

    def forward_expected(self, inputs):
        x, = inputs
        y = self.reference(x.astype(numpy.float64), ROIS, ROI_INDICES, self.out, 0.6, self.group_size,
                           (None, None), "average_pooling")
        return y.astype(self.dtype),


@pytest.mark.parametrize("case", ["average_pooling", "average_pooling_outsize_int", "average_pooling_rect"])
def test_matches_chainercv(ps_roi_fixture, case):
    f = lambda key: ps_roi_fixture[f"{case}/{key}"]  # noqa: E731
    outsize = tuple(int(v) for v in f("outsize"))
    x = kusari.Variable(f("x"))
    y = ps_roi_average_pooling_2d(x, f("rois"), f("roi_indices"), outsize[0] if len(outsize) == 1 else outsize,
                                  float(f("spatial_scale")), int(f("group_size")))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, f("y"), rtol=1e-6, atol=1e-6)
    y.grad = f("gy")
    y.backward()
    numpy.testing.assert_allclose(x.grad, f("gx"), rtol=1e-6, atol=1e-6)


def test_position_sensitive_channels():
    # channel (c * G + gh) * G + gw holds the constant 10 c + 3 gh + gw: each bin reads its own group
    x = numpy.zeros((1, 2 * 4, 6, 6), numpy.float32)
    for c in range(2):
        for gh in range(2):
            for gw in range(2):
                x[0, (c * 2 + gh) * 2 + gw] = 10 * c + 3 * gh + gw
    y = ps_roi_average_pooling_2d(x, numpy.array([[0, 0, 6, 6]], numpy.float32), numpy.zeros(1, numpy.int32), 2, 1.0, 2)
    numpy.testing.assert_array_equal(y.array[0], [[[0, 1], [3, 4]], [[10, 11], [13, 14]]])


def test_bad_input():
    x = numpy.zeros((1, 8, 5, 5), numpy.float32)
    rois = numpy.zeros((1, 4), numpy.float32)
    idx = numpy.zeros(1, numpy.int32)
    with pytest.raises(ValueError, match=r"ps_roi_average_pooling_2d: x has 8 channels but outsize's out_c \* "
                                         r"group_size\*\*2 = 3 \* 4 = 12"):
        ps_roi_average_pooling_2d(x, rois, idx, (3, 2, 2), 1.0, 2)
    with pytest.raises(ValueError, match=r"x has 8 channels, not a multiple of group_size\*\*2 = 9"):
        ps_roi_average_pooling_2d(x, rois, idx, 3, 1.0, 3)
    with pytest.raises(TypeError, match=r"ps_roi_average_pooling_2d: dtypes must match \(x.dtype=float32, rois.dtype=float64\)"):
        ps_roi_average_pooling_2d(x, rois.astype(numpy.float64), idx, 2, 1.0, 2)
    with pytest.raises(ValueError, match=r"ps_roi_average_pooling_2d: roi_indices must lie in \[0, 1\)"):
        ps_roi_average_pooling_2d(x, rois, idx + 1, 2, 1.0, 2)
    with pytest.raises(ValueError, match=r"ps_roi_average_pooling_2d: rois must have shape \(R, 4\)"):
        ps_roi_average_pooling_2d(x, rois[:, :3], idx, 2, 1.0, 2)
    with pytest.raises(ValueError, match=r"ps_roi_average_pooling_2d: group_size must be a positive int, got 0"):
        ps_roi_average_pooling_2d(x, rois, idx, 2, 1.0, 0)
    with pytest.raises(ValueError, match=r"ps_roi_average_pooling_2d: spatial_scale must be a positive number"):
        ps_roi_average_pooling_2d(x, rois, idx, 2, -1.0, 2)
    with pytest.raises(ValueError, match=r"ps_roi_average_pooling_2d: outsize's out_h must be a positive int"):
        ps_roi_average_pooling_2d(x, rois, idx, (0, 2), 1.0, 2)
    with pytest.raises(ValueError, match=r"ps_roi_average_pooling_2d: x must be 4-dimensional"):
        ps_roi_average_pooling_2d(x[0], rois, idx, 2, 1.0, 2)
    with pytest.raises(TypeError, match=r"ps_roi_average_pooling_2d: roi_indices must be an integer array"):
        ps_roi_average_pooling_2d(x, rois, idx.astype(numpy.float32), 2, 1.0, 2)
