import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product([
    [{"shape": (4, 5), "axis": 1}, {"shape": (2, 3, 4), "axis": (1, 2)},
     {"shape": (3, 4), "axis": 0}, {"shape": (2, 3, 4), "axis": -1}],
    [{"dtype": numpy.float32}, {"dtype": numpy.float64}],
]))
class TestNormalize(testing.FunctionTestCase):
    eps = 1e-5

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.normalize(inputs[0], eps=self.eps, axis=self.axis),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        axis = self.axis if isinstance(self.axis, tuple) else (self.axis,)
        norm = numpy.sqrt(numpy.apply_over_axes(numpy.sum, x ** 2, axis))
        return (x / (norm + self.eps)).astype(self.dtype),


def test_default_axis_is_one():
    x = numpy.array([[3.0, 4.0], [0.0, 2.0]])
    testing.assert_allclose(F.normalize(x, eps=0.0).array, [[0.6, 0.8], [0.0, 1.0]])


def test_zero_slice_has_finite_gradient():
    # x / (||x|| + eps) has derivative I / eps at x = 0 (the x x^T / ||x|| term vanishes there).
    x = kusari.Variable(numpy.array([[0.0, 0.0, 0.0], [1.0, 2.0, 2.0]]))
    gy = numpy.array([[1.0, -2.0, 0.5], [0.0, 0.0, 0.0]])
    y = F.normalize(x, eps=1e-3)
    y.grad = gy
    y.backward()
    testing.assert_allclose(x.grad[0], gy[0] / 1e-3)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="normalize: x must be a floating-point array"):
        F.normalize(numpy.ones((2, 3), numpy.int32))


def test_axis_out_of_range_rejected():
    with pytest.raises(ValueError, match="normalize: axis 2 is out of bounds for an array of dimension 2"):
        F.normalize(numpy.ones((2, 3), numpy.float32), axis=2)
