"""What the piecewise-linear activations keep for backward: the output where it determines the slope."""
import gc
import weakref

import numpy
import pytest

import kusari
import kusari.functions as F

# each activation whose slope is read from its output, with inputs on every piece, off the kinks
FROM_OUTPUT = {
    "relu": (F.relu, [-1.5, -0.2, 0.3, 2.0]),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.2), [-1.5, -0.2, 0.3, 2.0]),
    "clipped_relu": (lambda x: F.clipped_relu(x, 1.0), [-0.5, 0.3, 0.7, 1.5]),
    "hard_sigmoid": (F.hard_sigmoid, [-3.0, -1.0, 1.0, 3.0]),
}


@pytest.mark.parametrize("name", sorted(FROM_OUTPUT))
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_input_freed_and_gradients_from_output(name, dtype):
    fn, values = FROM_OUTPUT[name]
    x = kusari.Variable(numpy.array(values, dtype))
    h = x * 2.0                      # an intermediate that only the activation could keep alive
    h_array = weakref.ref(h.array)
    y = fn(h)
    assert y.creator._input_indexes_to_retain is None
    assert y.creator._output_indexes_to_retain == (0,)
    del h
    gc.collect()
    assert h_array() is None, f"{name} kept its input's array alive"

    gy = numpy.linspace(-1, 1, len(values)).astype(dtype)
    gx, = kusari.grad([y], [x], [gy], enable_double_backprop=True)
    eps = 1e-3   # every input is at least 0.1 from a kink: the difference quotient is the slope
    xs = numpy.array(values, numpy.float64) * 2.0
    slope = (fn(xs + eps).array - fn(xs - eps).array) / (2 * eps)
    numpy.testing.assert_allclose(gx.array, gy * slope * 2.0, rtol=1e-5)
    assert gx.dtype == dtype


@pytest.mark.parametrize("slope", [0.0, -0.5])
def test_leaky_relu_keeps_input_when_slope_loses_the_sign(slope):
    # slope <= 0 maps negative x to y >= 0, so y cannot tell the two pieces apart
    x = kusari.Variable(numpy.array([-1.0, 1.0], numpy.float32))
    y = F.leaky_relu(x, slope)
    assert y.creator._input_indexes_to_retain == (0,)
    gx, = kusari.grad([y], [x], [numpy.ones(2, numpy.float32)])
    numpy.testing.assert_array_equal(gx.array, [slope, 1.0])


def test_leaky_relu_slope_of_an_underflowing_negative_input():
    # 0.2 * -1e-45 rounds to -0.0 in float32: the output's sign bit still says "negative piece"
    x = kusari.Variable(numpy.array([-1e-45, 1e-45], numpy.float32))
    y = F.leaky_relu(x, 0.2)
    assert y.array[0] == 0
    gx, = kusari.grad([y], [x], [numpy.ones(2, numpy.float32)])
    numpy.testing.assert_array_equal(gx.array, numpy.array([0.2, 1.0], numpy.float32))
