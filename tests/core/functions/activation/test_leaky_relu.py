import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "slope": [0.2, -0.5],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestLeakyReLU(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(0.1, 1, self.shape) * numpy.random.choice([-1, 1], self.shape)
        return numpy.asarray(x).astype(self.dtype),

    def forward(self, inputs, device):
        return F.leaky_relu(inputs[0], slope=self.slope),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(numpy.where(x >= 0, x, self.slope * x)).astype(self.dtype),


def test_default_slope_is_0_2():
    y = F.leaky_relu(numpy.array([-1.0, 1.0], numpy.float32))
    numpy.testing.assert_allclose(y.array, [-0.2, 1.0])


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="leaky_relu: x must be a floating-point array"):
        F.leaky_relu(numpy.arange(3))
