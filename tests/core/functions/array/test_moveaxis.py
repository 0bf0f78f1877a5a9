import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "axes": [(0, 2), (-1, 0), ((0, 1), (3, 0)), ((2, 0, 3), (0, 1, 2))],
}))
class TestMoveaxis(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4, 5)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.moveaxis(inputs[0], *self.axes),

    def forward_expected(self, inputs):
        return numpy.moveaxis(inputs[0], *self.axes),


def test_bad_axes_rejected():
    x = numpy.ones((2, 3, 4))
    with pytest.raises(ValueError, match=r"moveaxis: repeated axis in source=\(0, -3\)"):
        F.moveaxis(x, (0, -3), (1, 2))
    with pytest.raises(ValueError, match="moveaxis: source=.0, 1. and destination=.2,. must have"):
        F.moveaxis(x, (0, 1), (2,))
    with pytest.raises(ValueError, match="moveaxis: axis 3 is out of bounds"):
        F.moveaxis(x, 3, 0)
