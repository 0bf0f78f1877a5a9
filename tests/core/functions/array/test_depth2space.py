import numpy
import pytest

import kusari.functions as F
from kusari import testing


def depth2space_reference(x, r):
    n, crr, h, w = x.shape
    c = crr // (r * r)
    y = numpy.empty((n, c, h * r, w * r), x.dtype)
    for i in range(r):
        for j in range(r):
            for k in range(c):
                y[:, k, i::r, j::r] = x[:, (i * r + j) * c + k]
    return y


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [((1, 4, 2, 3), 2), ((2, 18, 2, 1), 3), ((2, 3, 2, 2), 1)],
}))
class TestDepth2Space(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.depth2space(inputs[0], self.case[1]),

    def forward_expected(self, inputs):
        return depth2space_reference(inputs[0], self.case[1]),


def test_chainer_docstring_example():
    x = numpy.arange(24).reshape(1, 4, 2, 3).astype(numpy.float32)
    expected = [[0, 6, 1, 7, 2, 8], [12, 18, 13, 19, 14, 20],
                [3, 9, 4, 10, 5, 11], [15, 21, 16, 22, 17, 23]]
    numpy.testing.assert_array_equal(F.depth2space(x, 2).array[0, 0], expected)


def test_channels_not_divisible_rejected():
    with pytest.raises(ValueError, match=r"depth2space: X.shape\[1\]=6 is not divisible by r\*r=4"):
        F.depth2space(numpy.ones((1, 6, 2, 2), numpy.float32), 2)


def test_bad_ndim_and_factor_rejected():
    with pytest.raises(ValueError, match=r"depth2space: X must be 4-dimensional .* got shape \(4, 2, 2\)"):
        F.depth2space(numpy.ones((4, 2, 2), numpy.float32), 2)
    with pytest.raises(ValueError, match="depth2space: r must be a positive int, got 0"):
        F.depth2space(numpy.ones((1, 4, 2, 2), numpy.float32), 0)
