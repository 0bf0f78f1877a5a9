import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestTanh(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(-2, 2, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.tanh(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.asarray(numpy.tanh(inputs[0].astype(numpy.float64))).astype(self.dtype),


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="tanh: x must be a floating-point array"):
        F.tanh(numpy.arange(3))
