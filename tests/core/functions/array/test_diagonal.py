import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [((3, 4), 0, 0, 1), ((3, 4), 2, 0, 1), ((2, 3, 4), -1, 2, 0), ((4, 3, 2), 0, -1, 0)],
}))
class TestDiagonal(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        _, offset, axis1, axis2 = self.case
        return F.diagonal(inputs[0], offset, axis1, axis2),

    def forward_expected(self, inputs):
        _, offset, axis1, axis2 = self.case
        return numpy.diagonal(inputs[0], offset, axis1, axis2).copy(),


def test_output_is_writable():
    y = F.diagonal(numpy.ones((3, 3), numpy.float32))
    y.array[0] = 5


def test_bad_axes_rejected():
    with pytest.raises(ValueError, match="diagonal: x must have at least 2 dimensions, got 1"):
        F.diagonal(numpy.ones(3))
    with pytest.raises(ValueError, match="diagonal: axis1=1 and axis2=-1 refer to the same axis"):
        F.diagonal(numpy.ones((3, 3)), 0, 1, -1)
    with pytest.raises(ValueError, match="diagonal: axis 3 is out of bounds"):
        F.diagonal(numpy.ones((3, 3)), 0, 0, 3)
