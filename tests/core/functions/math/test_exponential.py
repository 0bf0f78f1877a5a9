import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "name": ["exp", "log", "log2", "log10"],
    "shape": [(3, 2), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestExponential(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(0.5, 2, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0]),

    def forward_expected(self, inputs):
        return getattr(numpy, self.name)(inputs[0]).astype(self.dtype),


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="exp: x must be a floating-point array"):
        F.exp(numpy.arange(3))
