import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "output_shape": [(3, 4), (1, 2)],
}))
class TestSpatialTransformerGrid(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 2, 3)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.spatial_transformer_grid(inputs[0], self.output_shape),

    def forward_expected(self, inputs):
        theta = inputs[0].astype(numpy.float64)
        h, w = self.output_shape
        grid = numpy.empty((len(theta), 2, h, w))
        for i in range(h):
            for j in range(w):
                y_t = -1 + 2 * i / (h - 1) if h > 1 else -1
                x_t = -1 + 2 * j / (w - 1) if w > 1 else -1
                grid[:, :, i, j] = theta @ numpy.array([x_t, y_t, 1.0])
        return grid.astype(self.dtype),


def test_identity_transform_spans_minus_one_to_one():
    theta = numpy.array([[[1, 0, 0], [0, 1, 0]]], numpy.float32)
    grid = F.spatial_transformer_grid(theta, (2, 3)).array
    numpy.testing.assert_allclose(grid[0, 0], [[-1, 0, 1], [-1, 0, 1]])
    numpy.testing.assert_allclose(grid[0, 1], [[-1, -1, -1], [1, 1, 1]])


def test_bad_arguments_rejected():
    with pytest.raises(ValueError, match=r"spatial_transformer_grid: theta must have shape \(n, 2, 3\), "
                                         r"got \(2, 3\)"):
        F.spatial_transformer_grid(numpy.ones((2, 3), numpy.float32), (2, 2))
    with pytest.raises(ValueError, match="spatial_transformer_grid: output_shape=.2,. must be two"):
        F.spatial_transformer_grid(numpy.ones((1, 2, 3), numpy.float32), (2,))
    with pytest.raises(TypeError, match="spatial_transformer_grid: theta must be a floating-point array"):
        F.spatial_transformer_grid(numpy.ones((1, 2, 3), numpy.int32), (2, 2))
