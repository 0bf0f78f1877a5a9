import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(3, 2), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestAbsolute(testing.FunctionTestCase):
    def generate_inputs(self):
        # |x| >= 0.2 keeps clear of the kink at 0.
        x = numpy.random.uniform(0.2, 2, self.shape) * numpy.random.choice([-1, 1], self.shape)
        return numpy.asarray(x).astype(self.dtype),

    def forward(self, inputs, device):
        return F.absolute(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.where(x < 0, -x, x).astype(self.dtype),


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="absolute: x must be a floating-point array"):
        F.absolute(numpy.arange(-2, 2))
