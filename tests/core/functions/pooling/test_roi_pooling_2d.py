
import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing

# (batch_index, x_min, y_min, x_max, y_max) in image coordinates; with spatial_scale 0.6 on a
# 12 x 10 map: inside, partly outside, tiny (x_max < x_min), entirely outside.
ROIS = numpy.array([[0, 2.1, 1.3, 12.2, 14.7], [1, -3.3, -4.1, 6.1, 9.2],
                    [1, 7.7, 5.5, 7.2, 5.9], [0, 30.0, 25.0, 45.0, 40.0]])








@testing.parameterize(*testing.product({
    "out": [(3, 2), (4, 4)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestROIPooling2D(testing.FunctionTestCase):
    @pytest.fixture(autouse=True)
    def _reference(self, roi_pool_reference):
        self.reference = roi_pool_reference

    def generate_inputs(self):
        # A permutation: no ties, so the argmax is stable under the numerical-gradient probes.
        x = numpy.random.permutation(2 * 3 * 12 * 10).reshape(2, 3, 12, 10)
        return (x / x.size * 2 - 1).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.roi_pooling_2d(x, ROIS.astype(x.dtype), *self.out, 0.6),

    def forward_expected(self, inputs):
        x, = inputs
        boxes = ROIS[:, [2, 1, 4, 3]]  # (x_min, y_min, x_max, y_max) -> (y_min, x_min, y_max, x_max)
        return self.reference(x.astype(numpy.float64), boxes, ROIS[:, 0], self.out, 0.6, "max",
                              inclusive=True).astype(self.dtype),


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


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("table_elements", [None, 1])
def test_interval_max_is_separable_max(seed, table_elements, monkeypatch):
    """The sparse-table max over integer bins picks the values and elements (ties: the first in row-major
    order) that the generic per-sample max does, empty bins and boxes outside the map included; with the
    table whole and one channel at a time."""
    from kusari.functions.pooling import _roi
    if table_elements is not None:
        monkeypatch.setattr(_roi, "_TABLE_ELEMENTS", table_elements)
    rng = numpy.random.RandomState(seed)
    x = rng.randint(0, 4, (2, 3, 13, 17)).astype(numpy.float32)        # small integers: many ties
    top_left = rng.uniform(-10, 60, (40, 2))
    boxes = numpy.concatenate([top_left, top_left + rng.uniform(0, 50, (40, 2))], axis=1)
    boxes[0] = [-30, -30, -20, -20]                                      # entirely outside
    batch = rng.randint(0, 2, 40)
    boxes *= 0.25
    rows = _roi.bin_axis(numpy, boxes[:, 0], boxes[:, 2], 3, 13, True, False)
    cols = _roi.bin_axis(numpy, boxes[:, 1], boxes[:, 3], 4, 17, True, False)
    y, points, weights = _roi.interval_max(numpy, x, batch, rows, cols)
    y_ref, points_ref, weights_ref = _roi.separable_max(numpy, x, batch, rows, cols)
    numpy.testing.assert_array_equal(y, y_ref)
    numpy.testing.assert_array_equal(weights, weights_ref)
    numpy.testing.assert_array_equal(numpy.where(weights > 0, points, -1), numpy.where(weights_ref > 0, points_ref, -1))
    assert (weights == 0).any() and (weights == 1).any()
