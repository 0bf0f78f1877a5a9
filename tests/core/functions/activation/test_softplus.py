import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "beta": [1.0, 2.5, -0.5],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSoftplus(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(-2, 2, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.softplus(inputs[0], beta=self.beta),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(numpy.log1p(numpy.exp(self.beta * x)) / self.beta).astype(self.dtype),


def test_large_inputs_do_not_overflow():
    with numpy.errstate(over="raise", invalid="raise"):
        y = F.softplus(numpy.array([-200.0, 200.0], numpy.float32)).array
    numpy.testing.assert_allclose(y, [0.0, 200.0])


def test_zero_beta_rejected():
    with pytest.raises(ValueError, match="softplus: beta must be nonzero"):
        F.softplus(numpy.ones(2, numpy.float32), beta=0)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="softplus: x must be a floating-point array"):
        F.softplus(numpy.arange(3))
