import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [((3, 2, 4), 0), ((3, 2, 4), 1), ((3, 2, 4), -1), ((4,), 0)],
}))
class TestSeparate(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.separate(inputs[0], self.case[1])

    def forward_expected(self, inputs):
        x = numpy.moveaxis(inputs[0], self.case[1], 0)
        return tuple(numpy.asarray(x[i]) for i in range(len(x)))


def test_unused_pieces_get_zero_gradient():
    x = kusari.Variable(numpy.ones((3, 2), numpy.float32))
    ys = F.separate(x, axis=0)
    ys[1].grad = numpy.full(2, 5, numpy.float32)
    ys[1].backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 0], [5, 5], [0, 0]])


def test_bad_inputs_rejected():
    with pytest.raises(ValueError, match="separate: x must have at least one dimension"):
        F.separate(numpy.ones(()))
    with pytest.raises(ValueError, match="separate: axis 2 is out of bounds"):
        F.separate(numpy.ones((2, 2)), 2)
