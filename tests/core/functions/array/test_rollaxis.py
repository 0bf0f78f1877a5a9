import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "args": [(2, 0), (0, 3), (1, 1), (-1, 1), (0, -1), (3, 4)],
}))
class TestRollaxis(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4, 5)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.rollaxis(inputs[0], *self.args),

    def forward_expected(self, inputs):
        return numpy.rollaxis(inputs[0], *self.args),


def test_bad_arguments_rejected():
    x = numpy.ones((2, 3))
    with pytest.raises(ValueError, match="rollaxis: axis=2 is out of bounds for x with 2 dimensions"):
        F.rollaxis(x, 2)
    with pytest.raises(ValueError, match=r"rollaxis: start=3 must lie in \[-2, 2\]"):
        F.rollaxis(x, 0, 3)
