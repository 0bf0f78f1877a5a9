import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*[
    {"dtype": numpy.float64, "typ": numpy.float32},
    {"dtype": numpy.float32, "typ": numpy.float32},
    {"dtype": numpy.float64, "typ": numpy.float64},
])
class TestCast(testing.FunctionTestCase):
    def setup(self):
        if numpy.dtype(self.typ).itemsize < self.dtype.itemsize:
            # the output is rounded to the narrower type; cast is linear, so a large step keeps the
            # numerical derivative exact while making that rounding negligible
            self.check_backward_options = {"eps": 1e-2, "atol": 1e-4, "rtol": 1e-3}
            self.check_double_backward_options = {"eps": 1e-2, "atol": 1e-4, "rtol": 1e-3}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.cast(inputs[0], self.typ),

    def forward_expected(self, inputs):
        return inputs[0].astype(self.typ),


def test_upcast_on_request_and_gradient_in_input_dtype():
    # float32 -> float64 is the one direction the harness would flag as an upcast
    x = kusari.Variable(numpy.array([0.5, -1.25], numpy.float32))
    y = F.cast(x, numpy.float64)
    assert y.dtype == numpy.float64
    numpy.testing.assert_array_equal(y.array, [0.5, -1.25])
    y.grad = numpy.array([2.0, 3.0])
    y.backward()
    assert x.grad.dtype == numpy.float32
    numpy.testing.assert_array_equal(x.grad, [2.0, 3.0])


def test_cast_to_integer_and_same_dtype():
    x = numpy.array([1.7, -2.2], numpy.float32)
    numpy.testing.assert_array_equal(F.cast(x, "int32").array, numpy.array([1, -2], numpy.int32))
    v = kusari.Variable(x)
    assert F.cast(v, numpy.float32) is v


def test_bad_type_rejected():
    with pytest.raises(TypeError, match="cast: typ=3.5 is not a dtype"):
        F.cast(numpy.ones(2, numpy.float32), 3.5)
