import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [(3, 1), ([1, 4], 1), ([2], 0), (1, -1), ([0, 2, 2], 1)],
}))
class TestSplitAxis(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 6, 3)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.split_axis(inputs[0], *self.case)

    def forward_expected(self, inputs):
        return tuple(numpy.split(inputs[0], *self.case))


def test_force_tuple_false_returns_a_variable():
    x = numpy.ones((2, 3), numpy.float32)
    assert isinstance(F.split_axis(x, 1, 1, force_tuple=False), kusari.Variable)
    assert isinstance(F.split_axis(x, 1, 1), tuple)
    assert isinstance(F.split_axis(x, 3, 1, force_tuple=False), tuple)


def test_indices_as_array_and_unused_piece_gradient():
    x = kusari.Variable(numpy.arange(6, dtype=numpy.float32))
    a, b = F.split_axis(x, numpy.array([4]), 0)
    a.grad = numpy.ones(4, numpy.float32)
    a.backward()
    numpy.testing.assert_array_equal(x.grad, [1, 1, 1, 1, 0, 0])


def test_bad_sections_rejected():
    x = numpy.ones((2, 5), numpy.float32)
    with pytest.raises(ValueError, match=r"split_axis: x.shape\[1\]=5 cannot be split into 2 equal sections"):
        F.split_axis(x, 2, 1)
    with pytest.raises(ValueError, match="split_axis: indices_or_sections=0 must be positive"):
        F.split_axis(x, 0, 1)
    with pytest.raises(ValueError, match="split_axis: axis 2 is out of bounds"):
        F.split_axis(x, 1, 2)
