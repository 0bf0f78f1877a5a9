import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "axes": [(0, 2), (1, -1), (2, 2)],
}))
class TestSwapaxes(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.swapaxes(inputs[0], *self.axes),

    def forward_expected(self, inputs):
        return numpy.swapaxes(inputs[0], *self.axes),


def test_axis_out_of_range_rejected():
    with pytest.raises(ValueError, match="swapaxes: axis -4 is out of bounds"):
        F.swapaxes(numpy.ones((2, 3, 4)), 0, -4)
