import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing

# (shape, strided): strided inputs are every other element of a wider array (not contiguous)
LAYOUTS = [{"shape": (3, 4), "strided": False}, {"shape": (2, 3, 2), "strided": True},
           {"shape": (), "strided": False}, {"shape": (0, 3), "strided": False}]
DTYPES = [{"dtype": d} for d in (numpy.float16, numpy.float32, numpy.float64)]


@testing.parameterize(*testing.product([LAYOUTS, DTYPES]))
class TestHardSwish(testing.FunctionTestCase):
    def generate_inputs(self):
        # values in the three pieces (< -3, (-3, 3), > 3), each at least 0.1 from a kink
        shape = self.shape[:-1] + (2 * self.shape[-1],) if self.strided else self.shape
        centers = numpy.array([-4.5, 0.0, 4.5])
        x = centers[numpy.random.randint(0, 3, shape)] + numpy.random.uniform(-1.4, 1.4, shape)
        x = numpy.asarray(x).astype(self.dtype)
        return (x[..., ::2] if self.strided else x),

    def forward(self, inputs, device):
        return F.hard_swish(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(x * numpy.minimum(numpy.maximum(x + 3, 0), 6) / 6).astype(self.dtype),


def test_slopes_at_the_kinks_follow_pytorch():
    x = kusari.Variable(numpy.array([-3.0, 3.0]))
    F.sum(F.hard_swish(x)).backward()
    numpy.testing.assert_array_equal(x.grad, [-0.5, 1.5])


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="hard_swish: x must be a floating-point array"):
        F.hard_swish(numpy.arange(3))
