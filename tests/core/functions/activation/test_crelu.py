import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape_axis": [((3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), -1)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestCReLU(testing.FunctionTestCase):
    def generate_inputs(self):
        shape = self.shape_axis[0]
        x = numpy.random.uniform(0.1, 1, shape) * numpy.random.choice([-1, 1], shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.crelu(inputs[0], axis=self.shape_axis[1]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        y = numpy.concatenate([numpy.maximum(x, 0), numpy.maximum(-x, 0)], axis=self.shape_axis[1])
        return y.astype(self.dtype),


def test_bad_axis_rejected():
    with pytest.raises(ValueError, match="crelu: axis 3 is out of bounds"):
        F.crelu(numpy.ones((2, 3), numpy.float32), axis=3)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="crelu: x must be a floating-point array"):
        F.crelu(numpy.ones((2, 3), numpy.int32))
