import math

import numpy
import pytest

import kusari.functions as F
from kusari import testing

_erfc = numpy.vectorize(math.erfc, otypes=[numpy.float64])

# (shape, strided): strided inputs are every other element of a wider array (not contiguous)
LAYOUTS = [{"shape": (3, 4), "strided": False}, {"shape": (2, 3, 2), "strided": True},
           {"shape": (), "strided": False}, {"shape": (0, 3), "strided": False}]
DTYPES = [{"dtype": d} for d in (numpy.float16, numpy.float32, numpy.float64)]


def _reference(x, approximate):
    x = x.astype(numpy.float64)
    if approximate == "tanh":
        return 0.5 * x * (1 + numpy.tanh(numpy.sqrt(2 / numpy.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * _erfc(-x / numpy.sqrt(2.0))


@testing.parameterize(*testing.product([LAYOUTS, DTYPES,
                                        [{"approximate": "none"}, {"approximate": "tanh"}]]))
class TestGELU(testing.FunctionTestCase):
    def generate_inputs(self):
        shape = self.shape[:-1] + (2 * self.shape[-1],) if self.strided else self.shape
        x = numpy.asarray(numpy.random.uniform(-3, 3, shape)).astype(self.dtype)
        return (x[..., ::2] if self.strided else x),

    def forward(self, inputs, device):
        return F.gelu(inputs[0], approximate=self.approximate),

    def forward_expected(self, inputs):
        return numpy.asarray(_reference(inputs[0], self.approximate)).astype(self.dtype),


def test_exact_form_is_accurate_in_the_tails():
    # x * Phi(x) for x << 0 is tiny; computing it through erfc keeps its relative accuracy.
    x = numpy.array([-38.0, -20.0, -10.0, -5.0, -0.3, 0.0, 0.3, 5.0, 10.0, 40.0])
    testing.assert_allclose(F.gelu(x).array, _reference(x, "none"), atol=0, rtol=1e-12)


def test_tanh_approximation_is_close_to_the_exact_form():
    x = numpy.linspace(-5, 5, 101)
    testing.assert_allclose(F.gelu(x, approximate="tanh").array, F.gelu(x).array, atol=1e-3, rtol=0)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="gelu: x must be a floating-point array"):
        F.gelu(numpy.arange(3))


def test_unknown_approximation_rejected():
    with pytest.raises(ValueError, match="gelu: approximate must be 'none' or 'tanh', got 'erf'"):
        F.gelu(numpy.ones(3, numpy.float32), approximate="erf")
