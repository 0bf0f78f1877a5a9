import numpy
import pytest

import kusari.functions as F
from kusari import testing


def _reference_upsample(x, indexes, ksize, stride, pad, outsize):
    kh, kw = ksize
    y = numpy.zeros(x.shape[:2] + tuple(outsize), numpy.float64)
    for n, c, i, j in numpy.ndindex(*x.shape):
        ky, kx = divmod(int(indexes[n, c, i, j]), kw)
        h, w = i * stride[0] - pad[0] + ky, j * stride[1] - pad[1] + kx
        if 0 <= h < outsize[0] and 0 <= w < outsize[1]:
            y[n, c, h, w] += x[n, c, i, j]
    return y


@testing.parameterize(*testing.product([
    # outsize: the (h, w) the input was pooled from
    [{"ksize": (2, 2), "stride": None, "pad": (0, 0), "cover_all": True, "outsize": (6, 7)},
     {"ksize": (3, 3), "stride": (2, 2), "pad": (1, 1), "cover_all": True, "outsize": (6, 5)},
     {"ksize": (3, 2), "stride": (1, 2), "pad": (1, 0), "cover_all": False, "outsize": (4, 6)},
     {"ksize": (2, 2), "stride": None, "pad": (0, 0), "cover_all": True, "outsize": None}],
    [{"dtype": numpy.float32}, {"dtype": numpy.float64}],
]))
class TestUpsampling2D(testing.FunctionTestCase):
    def setup(self):
        stride = self.stride or self.ksize
        self.out = self.outsize or (5, 7)
        pooled = numpy.zeros((2, 3) + self.out, numpy.float32)
        shape = F.max_pooling_2d(pooled, self.ksize, stride, self.pad, self.cover_all).shape
        self.indexes = numpy.random.randint(0, self.ksize[0] * self.ksize[1], shape)
        self.args = (self.ksize, stride, self.pad)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.indexes.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.upsampling_2d(x, self.indexes, self.ksize, self.stride, self.pad, self.outsize,
                               self.cover_all),

    def forward_expected(self, inputs):
        x, = inputs
        y = _reference_upsample(x.astype(numpy.float64), self.indexes, *self.args, self.out)
        return y.astype(self.dtype),


def test_round_trip_with_max_pooling_keeps_only_the_maxima():
    x = numpy.random.RandomState(0).permutation(36).reshape(1, 1, 6, 6).astype(numpy.float32)
    y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    up = F.upsampling_2d(y, indexes, 2, outsize=(6, 6)).array
    block_max = x.reshape(3, 2, 3, 2).max(axis=(1, 3)).repeat(2, 0).repeat(2, 1)
    expected = numpy.where(x[0, 0] == block_max, x[0, 0], 0)
    numpy.testing.assert_array_equal(up[0, 0], expected)


def test_indexes_shape_mismatch_rejected():
    x = numpy.zeros((1, 1, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"upsampling_2d: indexes.shape=\(1, 1, 3, 2\) does not match "
                                         r"x.shape=\(1, 1, 3, 3\)"):
        F.upsampling_2d(x, numpy.zeros((1, 1, 3, 2), numpy.int64), 2)


def test_float_indexes_rejected():
    x = numpy.zeros((1, 1, 3, 3), numpy.float32)
    with pytest.raises(TypeError, match="upsampling_2d: indexes must be an integer array, got dtype float32"):
        F.upsampling_2d(x, x, 2)


def test_inconsistent_outsize_rejected():
    x = numpy.zeros((1, 1, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"upsampling_2d: outsize=\(10, 6\) pools back to \(5, 3\)"):
        F.upsampling_2d(x, numpy.zeros((1, 1, 3, 3), numpy.int64), 2, outsize=(10, 6))


def test_wrong_ndim_rejected():
    x = numpy.zeros((1, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match="upsampling_2d: x must be 4-dimensional, got 3"):
        F.upsampling_2d(x, numpy.zeros((1, 3, 3), numpy.int64), 2)
