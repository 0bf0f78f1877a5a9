import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "fn": ["sum", "mean"],
    "axis": [None, 0, 1, (0, 2), -1],
    "keepdims": [True, False],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSum(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3, 2, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.fn)(inputs[0], axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        return numpy.asarray(getattr(numpy, self.fn)(inputs[0], axis=self.axis,
                                                     keepdims=self.keepdims)).astype(self.dtype),


def test_bad_axis():
    with pytest.raises(ValueError, match="sum: axis 3 is out of bounds"):
        F.sum(numpy.ones((2, 2), numpy.float32), axis=3)
