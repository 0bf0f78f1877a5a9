import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(4, 5), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestHardSigmoid(testing.FunctionTestCase):
    def generate_inputs(self):
        # centres of the three pieces (saturated low, linear, saturated high) plus small noise,
        # keeping every value at least 0.5 from the kinks at -2.5 and 2.5
        pieces = numpy.array([-4.0, 0.0, 4.0])
        x = pieces[numpy.random.randint(0, 3, self.shape)] \
            + numpy.random.uniform(-1, 1, self.shape)
        return numpy.asarray(x).astype(self.dtype),

    def forward(self, inputs, device):
        return F.hard_sigmoid(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(numpy.clip(0.2 * x + 0.5, 0.0, 1.0)).astype(self.dtype),


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="hard_sigmoid: x must be a floating-point array"):
        F.hard_sigmoid(numpy.arange(3))
