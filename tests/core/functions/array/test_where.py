import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "shapes": [((3, 2), (3, 2), (3, 2)), ((3, 1), (1, 2), (3, 2)), ((2,), (3, 2), ())],
}))
class TestWhere(testing.FunctionTestCase):
    def generate_inputs(self):
        c_shape, x_shape, y_shape = self.shapes
        condition = numpy.random.uniform(-1, 1, c_shape) > 0
        x = numpy.asarray(numpy.random.uniform(-1, 1, x_shape)).astype(self.dtype)
        y = numpy.asarray(numpy.random.uniform(-1, 1, y_shape)).astype(self.dtype)
        return condition, x, y

    def forward(self, inputs, device):
        return F.where(*inputs),

    def forward_expected(self, inputs):
        condition, x, y = inputs
        shape = numpy.broadcast_shapes(condition.shape, x.shape, y.shape)
        c, x, y = (numpy.broadcast_to(a, shape) for a in inputs)
        out = y.copy()
        out[c] = x[c]
        return out,


def test_scalar_operand_takes_the_array_dtype():
    x = numpy.array([1.0, 2.0], numpy.float32)
    y = F.where(numpy.array([True, False]), x, 0.5)
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(y.array, [1.0, 0.5])


def test_bad_inputs_rejected():
    x = numpy.ones(2, numpy.float32)
    with pytest.raises(TypeError, match="where: condition must be a boolean array, got dtype int64"):
        F.where(numpy.array([1, 0]), x, x)
    with pytest.raises(TypeError, match="where: x.dtype=float32 and y.dtype=float64 differ"):
        F.where(numpy.array([True, False]), x, numpy.ones(2))
    with pytest.raises(ValueError, match=r"where: shapes do not broadcast \(condition.shape=\(3,\)"):
        F.where(numpy.array([True, False, True]), x, x)
    with pytest.raises(TypeError, match="where: x and y cannot both be scalars"):
        F.where(numpy.array([True]), 1.0, 2.0)
