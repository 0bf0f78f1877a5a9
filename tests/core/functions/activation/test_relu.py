import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


def away_from_zero(shape, dtype):
    """Uniform values with |x| in [0.1, 1): no element within a finite-difference step of 0."""
    x = numpy.random.uniform(0.1, 1, shape) * numpy.random.choice([-1, 1], shape)
    return numpy.asarray(x).astype(dtype)


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestReLU(testing.FunctionTestCase):
    def generate_inputs(self):
        return away_from_zero(self.shape, self.dtype),

    def forward(self, inputs, device):
        return F.relu(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(numpy.where(x > 0, x, 0)).astype(self.dtype),


def test_double_backward_of_mask_is_zero():
    x = kusari.Variable(numpy.array([-0.5, 0.5, 2.0], numpy.float32))
    y = F.relu(x)
    gx, = kusari.grad([y], [x], [numpy.ones(3, numpy.float32)], enable_double_backprop=True)
    numpy.testing.assert_array_equal(gx.array, [0, 1, 1])
    ggx, = kusari.grad([gx], [x], [numpy.ones(3, numpy.float32)])
    assert ggx is None or not ggx.array.any()


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="relu: x must be a floating-point array"):
        F.relu(numpy.arange(3))
