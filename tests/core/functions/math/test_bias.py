import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "case": [((3, 4, 5), (4,), 1), ((3, 4, 5), (4, 5), 1), ((3, 4), (3,), 0),
             ((2, 3), (2, 3), 0), ((2, 3, 4), (), 2)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestBias(testing.FunctionTestCase):
    def generate_inputs(self):
        x_shape, y_shape, _ = self.case
        x = numpy.random.uniform(-1, 1, x_shape).astype(self.dtype)
        y = numpy.asarray(numpy.random.uniform(-1, 1, y_shape)).astype(self.dtype)
        return x, y

    def forward(self, inputs, device):
        return F.bias(*inputs, axis=self.case[2]),

    def forward_expected(self, inputs):
        x, y = (a.astype(numpy.float64) for a in inputs)
        axis = self.case[2]
        y = y.reshape((1,) * axis + y.shape + (1,) * (x.ndim - axis - y.ndim))
        return (x + y).astype(self.dtype),


def test_default_axis_is_one():
    x = numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32)
    y = numpy.random.uniform(-1, 1, (3,)).astype(numpy.float32)
    numpy.testing.assert_allclose(F.bias(x, y).array, x + y[None, :, None], rtol=1e-6)


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"bias: y.shape=\(4,\) does not match x.shape\[1:2\]=\(3,\) "
                                         r"\(x.shape=\(2, 3\), axis=1\)"):
        F.bias(numpy.ones((2, 3), numpy.float32), numpy.ones(4, numpy.float32))


@pytest.mark.parametrize("axis", [-1, 2])
def test_axis_out_of_range_rejected(axis):
    with pytest.raises(ValueError, match=rf"bias: axis={axis} is out of range for x.shape=\(2, 3\) "
                                         r"and y.shape=\(3,\)"):
        F.bias(numpy.ones((2, 3), numpy.float32), numpy.ones(3, numpy.float32), axis=axis)


def test_mixed_dtypes_rejected():
    with pytest.raises(TypeError, match=r"bias: dtypes must match \(x.dtype=float32, y.dtype=float64\)"):
        F.bias(numpy.ones((2, 3), numpy.float32), numpy.ones(3, numpy.float64))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="bias: y must be a floating-point array"):
        F.bias(numpy.ones((2, 3), numpy.float32), numpy.ones(3, numpy.int32))
