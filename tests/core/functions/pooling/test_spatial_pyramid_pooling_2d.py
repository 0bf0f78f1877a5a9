import math

import numpy
import pytest

import kusari.functions as F
from kusari import testing


def _reference_spp(x, pyramid_height):
    h, w = x.shape[2:]
    levels = []
    for level in range(pyramid_height):
        bins = 2 ** level
        kh, kw = math.ceil(h / bins), math.ceil(w / bins)
        ph, pw = (kh * bins - h) // 2, (kw * bins - w) // 2
        out_h, out_w = math.ceil((h + 2 * ph - kh) / kh) + 1, math.ceil((w + 2 * pw - kw) / kw) + 1
        y = numpy.empty(x.shape[:2] + (out_h, out_w))
        for i in range(out_h):
            for j in range(out_w):
                rows = slice(max(i * kh - ph, 0), min(i * kh - ph + kh, h))
                cols = slice(max(j * kw - pw, 0), min(j * kw - pw + kw, w))
                block = x[:, :, rows, cols]
                # a bin lying entirely in the padding gives 0
                y[:, :, i, j] = block.max(axis=(2, 3)) if block.size else 0
        levels.append(y.reshape(x.shape[0], -1))
    return numpy.concatenate(levels, axis=1)[:, :, None, None]


@testing.parameterize(*testing.product({
    "shape": [(2, 3, 9, 8), (1, 2, 5, 7)],
    "pyramid_height": [1, 3],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSpatialPyramidPooling2D(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.permutation(numpy.prod(self.shape)).reshape(self.shape)
        return (x / x.size * 2 - 1).astype(self.dtype),

    def forward(self, inputs, device):
        return F.spatial_pyramid_pooling_2d(inputs[0], self.pyramid_height, pooling="max"),

    def forward_expected(self, inputs):
        return _reference_spp(inputs[0].astype(numpy.float64), self.pyramid_height).astype(self.dtype),


def test_output_length_is_fixed():
    for size in [(8, 8), (13, 10)]:
        x = numpy.zeros((2, 3) + size, numpy.float32)
        assert F.spatial_pyramid_pooling_2d(x, 3).shape == (2, 3 * (1 + 4 + 16), 1, 1)


def test_bins_entirely_in_padding_give_zero():
    # width 5 at level 2: ksize 2, pad 1, so the 4th bin covers columns 5 and 6, outside x
    x = -numpy.ones((1, 1, 4, 5), numpy.float32)
    y = F.spatial_pyramid_pooling_2d(x, 3).array.reshape(-1)
    numpy.testing.assert_array_equal(y[5:].reshape(4, 4)[:, 3], numpy.zeros(4))
    assert (y[5:].reshape(4, 4)[:, :3] == -1).all()


def test_unknown_pooling_rejected():
    with pytest.raises(ValueError, match="spatial_pyramid_pooling_2d: pooling must be 'max', got 'average'"):
        F.spatial_pyramid_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.float32), 2, pooling="average")


def test_bad_pyramid_height_rejected():
    with pytest.raises(ValueError, match="spatial_pyramid_pooling_2d: pyramid_height must be a positive int"):
        F.spatial_pyramid_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.float32), 0)


def test_wrong_ndim_rejected():
    with pytest.raises(ValueError, match="spatial_pyramid_pooling_2d: x must be 4-dimensional, got 3"):
        F.spatial_pyramid_pooling_2d(numpy.zeros((1, 4, 4), numpy.float32), 2)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="spatial_pyramid_pooling_2d: x must be a floating-point array"):
        F.spatial_pyramid_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.int32), 2)
