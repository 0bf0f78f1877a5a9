import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "axis": [None, 0, (0, 3), -2],
}))
class TestSqueeze(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (1, 3, 1, 1)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.squeeze(inputs[0], self.axis),

    def forward_expected(self, inputs):
        return numpy.squeeze(inputs[0], self.axis),


def test_axis_of_size_above_one_rejected():
    with pytest.raises(ValueError, match=r"squeeze: cannot squeeze axis 1 of x with shape \(1, 3\): "
                                         "its size is 3, not 1"):
        F.squeeze(numpy.ones((1, 3)), 1)
