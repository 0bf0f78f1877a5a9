import numpy
import pytest

import kusari.functions as F
from kusari import testing

# arctanh's slope grows without bound at +-1; stay inside (-0.8, 0.8).
RANGES = {"sinh": (-2, 2), "cosh": (-2, 2), "arctanh": (-0.8, 0.8)}


@testing.parameterize(*testing.product({
    "name": sorted(RANGES),
    "shape": [(3, 2), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestHyperbolic(testing.FunctionTestCase):
    def generate_inputs(self):
        lo, hi = RANGES[self.name]
        return numpy.asarray(numpy.random.uniform(lo, hi, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0]),

    def forward_expected(self, inputs):
        return getattr(numpy, self.name)(inputs[0].astype(numpy.float64)).astype(self.dtype),


@pytest.mark.parametrize("name", sorted(RANGES))
def test_integer_input_rejected(name):
    with pytest.raises(TypeError, match=f"{name}: x must be a floating-point array"):
        getattr(F, name)(numpy.arange(3))
