import numpy
import pytest

import kusari.functions as F
from kusari import testing

ALPHA = 1.6732632423543772848170429916717
SCALE = 1.0507009873554804934193349852946


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "params": [None, (0.5, 2.0)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSELU(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(0.1, 1, self.shape) * numpy.random.choice([-1, 1], self.shape)
        return numpy.asarray(x).astype(self.dtype),

    def forward(self, inputs, device):
        if self.params is None:
            return F.selu(inputs[0]),
        return F.selu(inputs[0], *self.params),

    def forward_expected(self, inputs):
        alpha, scale = self.params or (ALPHA, SCALE)
        x = inputs[0].astype(numpy.float64)
        y = scale * numpy.where(x > 0, x, alpha * (numpy.exp(x) - 1))
        return numpy.asarray(y).astype(self.dtype),


def test_self_normalizing_fixed_point():
    # The default constants map N(0, 1) inputs to outputs of mean 0 and variance 1.
    x = numpy.random.default_rng(0).standard_normal(200000)
    y = F.selu(x).array
    assert abs(y.mean()) < 0.01 and abs(y.var() - 1) < 0.01


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="selu: x must be a floating-point array"):
        F.selu(numpy.arange(3))
