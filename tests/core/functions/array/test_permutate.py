import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "axis": [0, 1, -1],
    "inv": [False, True],
}))
class TestPermutate(testing.FunctionTestCase):
    def setup(self):
        self.indices = numpy.array([2, 0, 3, 1], numpy.int32)

    def generate_inputs(self):
        shape = [3, 3]
        shape.insert(self.axis % 3, 4)
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.permutate(inputs[0], self.indices, self.axis, self.inv),

    def forward_expected(self, inputs):
        x = numpy.moveaxis(inputs[0], self.axis, 0)
        y = numpy.empty_like(x)
        for i, j in enumerate(self.indices):
            if self.inv:
                y[j] = x[i]
            else:
                y[i] = x[j]
        return numpy.moveaxis(y, 0, self.axis),


def test_indices_as_variable():
    x = numpy.arange(3, dtype=numpy.float32)
    y = F.permutate(x, kusari.Variable(numpy.array([1, 2, 0])))
    numpy.testing.assert_array_equal(y.array, [1, 2, 0])


def test_bad_indices_rejected():
    x = numpy.ones((3, 2), numpy.float32)
    with pytest.raises(ValueError, match=r"permutate: indices is not a permutation of range\(3\)"):
        F.permutate(x, numpy.array([0, 0, 1]))
    with pytest.raises(TypeError, match="permutate: indices must be a 1-D integer array"):
        F.permutate(x, numpy.array([0.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match=r"permutate: indices.shape=\(3,\) does not match x.shape\[1\]=2"):
        F.permutate(x, numpy.array([0, 2, 1]), axis=1)
