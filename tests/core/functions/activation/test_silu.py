import numpy
import pytest

import kusari.functions as F
from kusari import testing

# (shape, strided): strided inputs are every other element of a wider array (not contiguous)
LAYOUTS = [{"shape": (3, 4), "strided": False}, {"shape": (2, 3, 2), "strided": True},
           {"shape": (), "strided": False}, {"shape": (0, 3), "strided": False}]
DTYPES = [{"dtype": d} for d in (numpy.float16, numpy.float32, numpy.float64)]


@testing.parameterize(*testing.product([LAYOUTS, DTYPES]))
class TestSiLU(testing.FunctionTestCase):
    def generate_inputs(self):
        shape = self.shape[:-1] + (2 * self.shape[-1],) if self.strided else self.shape
        x = numpy.asarray(numpy.random.uniform(-4, 4, shape)).astype(self.dtype)
        return (x[..., ::2] if self.strided else x),

    def forward(self, inputs, device):
        return F.silu(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(x / (1 + numpy.exp(-x))).astype(self.dtype),


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="silu: x must be a floating-point array"):
        F.silu(numpy.arange(3))
