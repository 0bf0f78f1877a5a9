import numpy
import pytest

import kusari.functions as F
from kusari import testing


def space2depth_reference(x, r):
    n, c, hr, wr = x.shape
    y = numpy.empty((n, c * r * r, hr // r, wr // r), x.dtype)
    for i in range(r):
        for j in range(r):
            for k in range(c):
                y[:, (i * r + j) * c + k] = x[:, k, i::r, j::r]
    return y


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [((1, 1, 4, 6), 2), ((2, 2, 3, 6), 3), ((1, 2, 2, 2), 1)],
}))
class TestSpace2Depth(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.space2depth(inputs[0], self.case[1]),

    def forward_expected(self, inputs):
        return space2depth_reference(inputs[0], self.case[1]),


def test_inverts_depth2space():
    x = numpy.random.uniform(-1, 1, (2, 8, 3, 2)).astype(numpy.float32)
    numpy.testing.assert_array_equal(F.space2depth(F.depth2space(x, 2), 2).array, x)


def test_spatial_size_not_divisible_rejected():
    with pytest.raises(ValueError, match="space2depth: X's height 3 and width 4 must be divisible by r=2"):
        F.space2depth(numpy.ones((1, 1, 3, 4), numpy.float32), 2)
