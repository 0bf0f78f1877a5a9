import numpy
import pytest

import kusari.functions as F
from kusari import testing


def sample_reference(image, v, u):
    """Bilinear sample of one (c, h, w) image at pixel position (v, u), zero outside."""
    c, h, w = image.shape
    out = numpy.zeros(c)
    for yy in range(h):
        for xx in range(w):
            out += max(0.0, 1 - abs(v - yy)) * max(0.0, 1 - abs(u - xx)) * image[:, yy, xx]
    return out


def pixel_positions(size, shape):
    """Random positions from two pixels before the image to two past it, kept off integers
    (where bilinear sampling has kinks the numerical gradient check would trip on)."""
    return numpy.random.randint(-2, size + 1, shape) + numpy.random.uniform(0.15, 0.85, shape)


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "out_shape": [(3, 4), (1, 1)],
}))
class TestSpatialTransformerSampler(testing.FunctionTestCase):
    def generate_inputs(self):
        n, c, h, w = 2, 3, 4, 5
        x = numpy.random.uniform(-1, 1, (n, c, h, w)).astype(self.dtype)
        u = pixel_positions(w, (n,) + self.out_shape)
        v = pixel_positions(h, (n,) + self.out_shape)
        grid = numpy.stack([u * 2 / (w - 1) - 1, v * 2 / (h - 1) - 1], axis=1).astype(self.dtype)
        return x, grid

    def forward(self, inputs, device):
        return F.spatial_transformer_sampler(*inputs),

    def forward_expected(self, inputs):
        x, grid = (a.astype(numpy.float64) for a in inputs)
        n, c, h, w = x.shape
        y = numpy.empty((n, c) + grid.shape[2:])
        for b in range(n):
            for i, j in numpy.ndindex(*grid.shape[2:]):
                u = (grid[b, 0, i, j] + 1) * (w - 1) / 2
                v = (grid[b, 1, i, j] + 1) * (h - 1) / 2
                y[b, :, i, j] = sample_reference(x[b], v, u)
        return y.astype(self.dtype),


def test_corners_of_the_grid_hit_corner_pixels():
    x = numpy.arange(6, dtype=numpy.float32).reshape(1, 1, 2, 3)
    grid = numpy.array([[[[-1, 1]], [[-1, 1]]]], numpy.float32)
    numpy.testing.assert_array_equal(F.spatial_transformer_sampler(x, grid).array, [[[[0, 5]]]])


def test_bad_inputs_rejected():
    x = numpy.ones((2, 1, 3, 3), numpy.float32)
    grid = numpy.ones((2, 2, 1, 1), numpy.float32)
    with pytest.raises(ValueError, match=r"spatial_transformer_sampler: grid must have shape "
                                         r"\(n, 2, h_O, w_O\), got \(2, 3, 1, 1\)"):
        F.spatial_transformer_sampler(x, numpy.ones((2, 3, 1, 1), numpy.float32))
    with pytest.raises(ValueError, match=r"spatial_transformer_sampler: grid.shape\[0\]=1 does not match "
                                         r"x.shape\[0\]=2"):
        F.spatial_transformer_sampler(x, numpy.ones((1, 2, 1, 1), numpy.float32))
    with pytest.raises(TypeError, match="spatial_transformer_sampler: dtypes must match"):
        F.spatial_transformer_sampler(x, numpy.ones((2, 2, 1, 1)))
    with pytest.raises(ValueError, match="spatial_transformer_sampler: x must be 4-dimensional"):
        F.spatial_transformer_sampler(numpy.ones((2, 3, 3), numpy.float32), grid)


@pytest.mark.gpu
@testing.parameterize(*testing.product({
    "dtype": [numpy.float32], "out_shape": [(3, 4)], "device": ["@cupy:0"],
}))
class TestSpatialTransformerSamplerGPU(TestSpatialTransformerSampler):
    pass
