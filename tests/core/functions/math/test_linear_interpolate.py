import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(3, 2), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestLinearInterpolate(testing.FunctionTestCase):
    def generate_inputs(self):
        p = numpy.asarray(numpy.random.uniform(0, 1, self.shape)).astype(self.dtype)
        x = numpy.asarray(numpy.random.uniform(-1, 1, self.shape)).astype(self.dtype)
        y = numpy.asarray(numpy.random.uniform(-1, 1, self.shape)).astype(self.dtype)
        return p, x, y

    def forward(self, inputs, device):
        return F.linear_interpolate(*inputs),

    def forward_expected(self, inputs):
        p, x, y = (a.astype(numpy.float64) for a in inputs)
        return (p * x + (1 - p) * y).astype(self.dtype),


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"linear_interpolate: shapes must match \(p.shape=\(2,\), "
                                         r"x.shape=\(2,\), y.shape=\(3,\)\)"):
        F.linear_interpolate(numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float32),
                             numpy.ones(3, numpy.float32))


def test_mixed_dtypes_rejected():
    with pytest.raises(TypeError, match=r"linear_interpolate: dtypes must match \(p.dtype=float64"):
        F.linear_interpolate(numpy.ones(2), numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float32))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="linear_interpolate: p must be a floating-point array"):
        F.linear_interpolate(numpy.ones(2, numpy.int32), numpy.ones(2), numpy.ones(2))
