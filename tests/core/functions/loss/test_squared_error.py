import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "name": ["squared_error", "mean_squared_error"],
    "shape": [(3, 4), (5,), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSquaredError(testing.FunctionTestCase):
    def generate_inputs(self):
        x0 = numpy.asarray(numpy.random.uniform(-1, 1, self.shape)).astype(self.dtype)
        x1 = numpy.asarray(numpy.random.uniform(-1, 1, self.shape)).astype(self.dtype)
        return x0, x1

    def forward(self, inputs, device):
        return getattr(F, self.name)(*inputs),

    def forward_expected(self, inputs):
        x0, x1 = (x.astype(numpy.float64) for x in inputs)
        y = (x0 - x1) ** 2
        if self.name == "mean_squared_error":
            y = numpy.mean(y)
        return numpy.asarray(y).astype(self.dtype),


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"mean_squared_error: shapes must match \(x0.shape=\(3,\), x1.shape=\(4,\)\)"):
        F.mean_squared_error(numpy.zeros(3, numpy.float32), numpy.zeros(4, numpy.float32))


def test_dtype_mismatch_rejected():
    with pytest.raises(TypeError, match="squared_error: dtypes must match"):
        F.squared_error(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float64))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="squared_error: x0 must be a floating-point array"):
        F.squared_error(numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32))
