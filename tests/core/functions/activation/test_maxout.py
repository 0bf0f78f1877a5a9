import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "case": [((2, 6, 3), 2, 1), ((2, 6, 3), 3, 1), ((2, 3, 4), 2, 2), ((2, 6), 6, -1)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestMaxout(testing.FunctionTestCase):
    def generate_inputs(self):
        shape = self.case[0]
        # distinct values 0.05 apart: no ties, and no near-ties a finite difference could flip
        x = numpy.random.permutation(int(numpy.prod(shape))).reshape(shape) * 0.05
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        _, pool_size, axis = self.case
        return F.maxout(inputs[0], pool_size, axis=axis),

    def forward_expected(self, inputs):
        shape, pool_size, axis = self.case
        axis %= len(shape)
        x = inputs[0]
        grouped = x.reshape(shape[:axis] + (shape[axis] // pool_size, pool_size) + shape[axis + 1:])
        return grouped.max(axis=axis + 1),


def test_gradient_goes_to_first_maximum_on_ties():
    x = kusari.Variable(numpy.array([[1.0, 1.0, 0.0, 2.0]], numpy.float32))
    y = F.maxout(x, 2)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[1.0, 0.0, 0.0, 1.0]])


def test_channels_not_multiple_of_pool_size_rejected():
    with pytest.raises(ValueError, match=r"maxout: x.shape\[1\]=5 is not a multiple of pool_size=2"):
        F.maxout(numpy.ones((2, 5), numpy.float32), 2)


@pytest.mark.parametrize("pool_size", [0, -2, 1.5])
def test_bad_pool_size_rejected(pool_size):
    with pytest.raises(ValueError, match="maxout: pool_size must be a positive int"):
        F.maxout(numpy.ones((2, 4), numpy.float32), pool_size)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="maxout: x must be a floating-point array"):
        F.maxout(numpy.ones((2, 4), numpy.int32), 2)
