import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "axis": [0, 2, -1, -3],
}))
class TestExpandDims(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.expand_dims(inputs[0], self.axis),

    def forward_expected(self, inputs):
        return numpy.expand_dims(inputs[0], self.axis),


def test_axis_out_of_range_rejected():
    with pytest.raises(ValueError, match="expand_dims: axis 3 is out of bounds for an array of dimension 3"):
        F.expand_dims(numpy.ones((3, 2)), 3)
