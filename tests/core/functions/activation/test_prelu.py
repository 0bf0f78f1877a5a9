import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "W_shape": [(), (3,), (3, 2)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestPReLU(testing.FunctionTestCase):
    x_shape = (4, 3, 2)

    def generate_inputs(self):
        x = numpy.random.uniform(0.1, 1, self.x_shape) * numpy.random.choice([-1, 1], self.x_shape)
        W = numpy.asarray(numpy.random.uniform(-1, 1, self.W_shape))
        return x.astype(self.dtype), W.astype(self.dtype)

    def forward(self, inputs, device):
        return F.prelu(*inputs),

    def forward_expected(self, inputs):
        x, W = (a.astype(numpy.float64) for a in inputs)
        W = W.reshape((1,) + self.W_shape + (1,) * (2 - len(self.W_shape)))
        return numpy.where(x >= 0, x, W * x).astype(self.dtype),


def test_W_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"prelu: W.shape=\(4,\) must equal x.shape\[1:2\] "
                                         r"\(x.shape=\(2, 3\)\)"):
        F.prelu(numpy.ones((2, 3), numpy.float32), numpy.ones(4, numpy.float32))


def test_W_dtype_mismatch_rejected():
    with pytest.raises(TypeError, match="prelu: dtypes must match"):
        F.prelu(numpy.ones((2, 3), numpy.float32), numpy.ones(3, numpy.float64))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="prelu: x must be a floating-point array"):
        F.prelu(numpy.ones((2, 3), numpy.int32), numpy.ones(3, numpy.int32))
