import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "axis": [None, 0, -1, (0, 2)],
    "keepdims": [False, True],
    "zeros": [0, 1, 2],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestProd(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(0.5, 1.5, (3, 2, 4)) * numpy.random.choice([-1, 1], (3, 2, 4))
        x.flat[[5, 13][:self.zeros]] = 0  # one or two exact zeros in some reduced slices
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.prod(inputs[0], axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        y = numpy.prod(inputs[0].astype(numpy.float64), axis=self.axis, keepdims=self.keepdims)
        return numpy.asarray(y).astype(self.dtype),


def test_prod_gradient_at_zero():
    x = kusari.Variable(numpy.array([2.0, 0.0, 3.0]))
    F.prod(x).backward()
    numpy.testing.assert_allclose(x.grad, [0.0, 6.0, 0.0])


def test_prod_of_scalar():
    x = kusari.Variable(numpy.array(3.0))
    y = F.prod(x)
    y.backward()
    assert y.array == 3.0 and x.grad == 1.0


def test_prod_bad_axis():
    with pytest.raises(ValueError, match="prod: axis 2 is out of bounds"):
        F.prod(numpy.ones((2, 3), numpy.float32), axis=2)
    with pytest.raises(TypeError, match="prod: x must be a floating-point array"):
        F.prod(numpy.ones(3, numpy.int32))
