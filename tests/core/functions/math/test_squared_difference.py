import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shapes": [((3, 2), (3, 2)), ((3, 2), (2,)), ((1, 2), (3, 1)), ((), ())],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSquaredDifference(testing.FunctionTestCase):
    def generate_inputs(self):
        return tuple(numpy.asarray(numpy.random.uniform(-2, 2, s)).astype(self.dtype)
                     for s in self.shapes)

    def forward(self, inputs, device):
        return F.squared_difference(*inputs),

    def forward_expected(self, inputs):
        x1, x2 = (x.astype(numpy.float64) for x in inputs)
        return ((x1 - x2) ** 2).astype(self.dtype),


def test_mixed_dtypes_rejected():
    with pytest.raises(TypeError, match=r"squared_difference: dtypes must match"):
        F.squared_difference(numpy.ones(2, numpy.float64), numpy.ones(2, numpy.float32))


def test_non_broadcastable_shapes_rejected():
    with pytest.raises(ValueError, match=r"squared_difference: shapes do not broadcast "
                                         r"\(x1.shape=\(2,\), x2.shape=\(3,\)\)"):
        F.squared_difference(numpy.ones(2, numpy.float32), numpy.ones(3, numpy.float32))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="squared_difference: x2 must be a floating-point array"):
        F.squared_difference(numpy.ones(2, numpy.float32), numpy.arange(2))
