import numpy
import pytest
import scipy.special

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape_axis": [((3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), -1), ((5,), 0)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSoftmax(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape_axis[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.softmax(inputs[0], axis=self.shape_axis[1]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return scipy.special.softmax(x, axis=self.shape_axis[1]).astype(self.dtype),


def test_default_axis_is_1():
    x = numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32)
    numpy.testing.assert_allclose(F.softmax(x).array.sum(axis=1), numpy.ones((2, 4)), rtol=1e-6)


def test_large_inputs_are_stable():
    y = F.softmax(numpy.array([[1000.0, 1000.0, -1000.0]], numpy.float32)).array
    numpy.testing.assert_allclose(y, [[0.5, 0.5, 0.0]])


def test_bad_axis_rejected():
    with pytest.raises(ValueError, match="softmax: axis 2 is out of bounds for an array of dimension 2"):
        F.softmax(numpy.ones((2, 3), numpy.float32), axis=2)


def test_tuple_axis_rejected():
    with pytest.raises(TypeError, match="softmax: axis must be an int, got tuple"):
        F.softmax(numpy.ones((2, 3), numpy.float32), axis=(0, 1))


def test_scalar_input_rejected():
    with pytest.raises(ValueError, match="softmax: x must have at least one dimension"):
        F.softmax(numpy.asarray(1.0, numpy.float32))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="softmax: x must be a floating-point array"):
        F.softmax(numpy.ones((2, 3), numpy.int32))
