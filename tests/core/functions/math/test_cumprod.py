import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape_axis": [((5,), 0), ((3, 4), 1), ((3, 4), -2), ((2, 3, 2), None)],
    "zeros": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestCumprod(testing.FunctionTestCase):
    def generate_inputs(self):
        shape = self.shape_axis[0]
        x = numpy.random.uniform(0.5, 1.5, shape) * numpy.random.choice([-1, 1], shape)
        if self.zeros:
            x.flat[1] = 0  # an exact zero: gradients must not come from dividing by x
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.cumprod(inputs[0], axis=self.shape_axis[1]),

    def forward_expected(self, inputs):
        return numpy.cumprod(inputs[0].astype(numpy.float64), axis=self.shape_axis[1]).astype(self.dtype),


def test_cumprod_gradient_with_two_zeros():
    x = kusari.Variable(numpy.array([2.0, 0.0, 3.0, 0.0, 5.0]))
    y = F.cumprod(x)
    y.grad = numpy.ones(5)
    y.backward()
    # d/dx_j of sum_i prod_{k<=i} x_k, written out by hand for x = (2, 0, 3, 0, 5)
    numpy.testing.assert_allclose(x.grad, [1.0, 2.0 + 2 * 3, 0.0, 0.0, 0.0])


def test_cumprod_bad_axis():
    with pytest.raises(TypeError, match="cumprod: axis must be an int or None"):
        F.cumprod(numpy.ones((2, 3), numpy.float32), axis=1.0)
    with pytest.raises(ValueError, match="cumprod: axis -3 is out of bounds"):
        F.cumprod(numpy.ones((2, 3), numpy.float32), axis=-3)
