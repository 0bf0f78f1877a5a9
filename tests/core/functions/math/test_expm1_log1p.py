import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "name": ["expm1", "log1p"],
    "shape": [(3, 2), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestExpm1Log1p(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(-0.5, 2, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        y = numpy.exp(x) - 1.0 if self.name == "expm1" else numpy.log(1.0 + x)
        return y.astype(self.dtype),


@pytest.mark.parametrize("name", ["expm1", "log1p"])
def test_accurate_for_tiny_inputs(name):
    # exp(x) - 1 and log(1 + x) lose every digit here in float32; the fused forms do not.
    x = numpy.array([1e-10, -3e-9], numpy.float32)
    y = getattr(F, name)(x).array
    expected = x.astype(numpy.float64) * (1 + (x / 2 if name == "expm1" else -x / 2))
    numpy.testing.assert_allclose(y, expected, rtol=1e-6)


@pytest.mark.parametrize("name", ["expm1", "log1p"])
def test_integer_input_rejected(name):
    with pytest.raises(TypeError, match=f"{name}: x must be a floating-point array"):
        getattr(F, name)(numpy.arange(3))
