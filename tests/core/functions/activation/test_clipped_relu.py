import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "fn": ["clipped_relu", "relu6"],
    "shape": [(4, 5), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestClippedReLU(testing.FunctionTestCase):
    z = 0.75

    def generate_inputs(self):
        z = 6.0 if self.fn == "relu6" else self.z
        # values in the three pieces (< 0, (0, z), > z), each at least 0.05 from a kink
        pieces = numpy.array([-1.0, z / 2, z + 1.0])
        x = pieces[numpy.random.randint(0, 3, self.shape)] \
            + numpy.random.uniform(-0.3, 0.3, self.shape) * min(z / 2 - 0.05, 0.9)
        return numpy.asarray(x).astype(self.dtype),

    def forward(self, inputs, device):
        if self.fn == "relu6":
            return F.relu6(inputs[0]),
        return F.clipped_relu(inputs[0], self.z),

    def forward_expected(self, inputs):
        z = 6.0 if self.fn == "relu6" else self.z
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(numpy.minimum(numpy.maximum(x, 0), z)).astype(self.dtype),


def test_default_ceiling_is_20():
    y = F.clipped_relu(numpy.array([-1.0, 5.0, 30.0], numpy.float32))
    numpy.testing.assert_array_equal(y.array, [0.0, 5.0, 20.0])


def test_non_positive_z_rejected():
    with pytest.raises(ValueError, match="clipped_relu: z must be positive, got z=0"):
        F.clipped_relu(numpy.ones(2, numpy.float32), 0)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="clipped_relu: x must be a floating-point array"):
        F.relu6(numpy.arange(3))
