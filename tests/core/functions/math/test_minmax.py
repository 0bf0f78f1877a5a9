import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "fn": ["max", "min"],
    "axis": [None, 1, -1, (0, 2)],
    "keepdims": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestMinMax(testing.FunctionTestCase):
    def generate_inputs(self):
        # Distinct values at least 0.1 apart, so the numerical perturbations never change the winner.
        x = numpy.random.permutation(24).reshape(3, 2, 4) * 0.1 - 1.0
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.fn)(inputs[0], axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        y = getattr(numpy, self.fn)(inputs[0], axis=self.axis, keepdims=self.keepdims)
        return numpy.asarray(y).astype(self.dtype),


def test_max_gradient_goes_to_the_maximum():
    x = kusari.Variable(numpy.array([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]], numpy.float32))
    y = F.max(x, axis=1)
    y.grad = numpy.array([10.0, 20.0], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 10, 0], [20, 0, 0]])


def test_min_ties_all_receive_the_gradient():
    x = kusari.Variable(numpy.array([1.0, 3.0, 1.0]))
    F.min(x).backward()
    numpy.testing.assert_array_equal(x.grad, [1.0, 0.0, 1.0])


def test_minmax_errors():
    with pytest.raises(ValueError, match="max: cannot reduce over an empty axis"):
        F.max(numpy.ones((0, 2), numpy.float32), axis=0)
    with pytest.raises(ValueError, match="min: axis 2 is out of bounds"):
        F.min(numpy.ones((2, 2), numpy.float32), axis=2)
    with pytest.raises(TypeError, match="max: x must be a floating-point array"):
        F.max(numpy.arange(3))
