import numpy
import pytest
import scipy.special

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape_axis": [((3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), -1), ((5,), 0)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestLogSoftmax(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape_axis[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.log_softmax(inputs[0], axis=self.shape_axis[1]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return scipy.special.log_softmax(x, axis=self.shape_axis[1]).astype(self.dtype),


def test_large_inputs_are_stable():
    y = F.log_softmax(numpy.array([[1000.0, 0.0]], numpy.float32)).array
    numpy.testing.assert_allclose(y, [[0.0, -1000.0]])


def test_bad_axis_rejected():
    with pytest.raises(ValueError, match="log_softmax: axis -3 is out of bounds"):
        F.log_softmax(numpy.ones((2, 3), numpy.float32), axis=-3)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="log_softmax: x must be a floating-point array"):
        F.log_softmax(numpy.ones((2, 3), numpy.int64))
