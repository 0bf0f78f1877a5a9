import numpy
import pytest
import scipy.special

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSigmoid(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(-3, 3, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.sigmoid(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.asarray(scipy.special.expit(inputs[0].astype(numpy.float64))).astype(self.dtype),


def test_extreme_inputs_do_not_overflow():
    with numpy.errstate(over="raise", invalid="raise"):
        y = F.sigmoid(numpy.array([-1000.0, 1000.0], numpy.float32)).array
    numpy.testing.assert_array_equal(y, [0.0, 1.0])


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="sigmoid: x must be a floating-point array"):
        F.sigmoid(numpy.arange(3))
