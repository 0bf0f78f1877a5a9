import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "fn": ["argmax", "argmin"],
    "axis": [None, 0, 1, -1],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestArgMax(testing.FunctionTestCase):
    skip_backward_test = True  # indices are piecewise constant: no gradient

    def generate_inputs(self):
        return numpy.random.permutation(12).reshape(3, 4).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.fn)(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        return numpy.asarray(getattr(numpy, self.fn)(inputs[0], axis=self.axis)).astype(numpy.int32),


def test_argmax_returns_int32_indices():
    x = numpy.array([[1.0, 3.0, 2.0], [5.0, 4.0, 6.0]], numpy.float32)
    y = F.argmax(x, axis=1)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, [1, 2])
    assert F.argmin(x).array == 0


def test_argmax_errors():
    with pytest.raises(TypeError, match=r"argmax: axis must be an int or None, got \(0, 1\)"):
        F.argmax(numpy.ones((2, 2), numpy.float32), axis=(0, 1))
    with pytest.raises(ValueError, match="argmin: axis 2 is out of bounds"):
        F.argmin(numpy.ones((2, 2), numpy.float32), axis=2)
    with pytest.raises(ValueError, match=r"argmax: x is empty \(shape \(0,\)\)"):
        F.argmax(numpy.ones(0, numpy.float32))
    with pytest.raises(TypeError, match="argmin: x must be a floating-point array"):
        F.argmin(numpy.arange(3))
