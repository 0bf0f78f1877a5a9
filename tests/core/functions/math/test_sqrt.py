import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "name": ["sqrt", "rsqrt"],
    "shape": [(3, 2), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSqrt(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(0.5, 2, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0]),

    def forward_expected(self, inputs):
        root = numpy.sqrt(inputs[0].astype(numpy.float64))
        return (root if self.name == "sqrt" else 1.0 / root).astype(self.dtype),


@pytest.mark.parametrize("name", ["sqrt", "rsqrt"])
def test_integer_input_rejected(name):
    with pytest.raises(TypeError, match=f"{name}: x must be a floating-point array"):
        getattr(F, name)(numpy.arange(1, 4))
