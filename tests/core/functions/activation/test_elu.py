import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "alpha": [1.0, 0.5],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestELU(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(0.1, 1, self.shape) * numpy.random.choice([-1, 1], self.shape)
        return numpy.asarray(x).astype(self.dtype),

    def forward(self, inputs, device):
        return F.elu(inputs[0], alpha=self.alpha),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(numpy.where(x > 0, x, self.alpha * (numpy.exp(x) - 1))).astype(self.dtype),


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="elu: x must be a floating-point array"):
        F.elu(numpy.arange(3))
