"""kusari.rl.functions.scale_grad: the value unchanged, the gradient scaled, at first and second order."""
import kusari
import kusari.functions as F
import numpy
import pytest
from kusari.rl.functions import scale_grad


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize("scale", [0.0, 0.3, 1.0, -2.0])
def test_value_is_exact_and_gradient_scaled(dtype, scale):
    x = kusari.Variable(numpy.random.RandomState(0).uniform(-1e3, 1e3, (3, 4)).astype(dtype))
    y = scale_grad(x, scale)
    assert y.dtype == dtype and y.shape == (3, 4)
    numpy.testing.assert_array_equal(y.array, x.array)
    gy = numpy.random.RandomState(1).uniform(-1, 1, (3, 4)).astype(dtype)
    y.grad = gy
    y.backward()
    numpy.testing.assert_allclose(x.grad, scale * gy, rtol=1e-3 if dtype == numpy.float16 else 1e-6)


def test_second_order():
    # d/dx scale_grad(x**3, s) = 3 s x**2 and d2/dx2 = 6 s x
    s, x = 0.25, kusari.Variable(numpy.float64([0.5, -2.0]))
    y = F.sum(scale_grad(x ** 3, s))
    gx, = kusari.grad([y], [x], enable_double_backprop=True)
    numpy.testing.assert_allclose(gx.array, 3 * s * x.array ** 2)
    ggx, = kusari.grad([F.sum(gx)], [x])
    numpy.testing.assert_allclose(ggx.array, 6 * s * x.array)


def test_array_input():
    x = numpy.float32([1.5, -0.25])
    y = scale_grad(x, 0.5)
    assert isinstance(y, kusari.Variable)
    numpy.testing.assert_array_equal(y.array, x)
