import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "bounds": [(-1.0, 1.0), (None, 0.5), (-0.5, None)],
    "shape": [(3, 4), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestClip(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.asarray(numpy.random.uniform(-2, 2, self.shape))
        # Move points off the kinks at the bounds so numerical derivatives stay one-sided-free.
        for b in self.bounds:
            if b is not None:
                x = numpy.where(numpy.abs(x - b) < 0.1, x + 0.25, x)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.clip(inputs[0], *self.bounds),

    def forward_expected(self, inputs):
        return numpy.asarray(numpy.clip(inputs[0].astype(numpy.float64), *self.bounds)).astype(self.dtype),


def test_gradient_passes_only_inside_the_interval():
    x = kusari.Variable(numpy.array([-2.0, -0.5, 0.0, 0.7, 3.0], numpy.float32))
    F.sum(F.clip(x, -1.0, 1.0) * 3.0).backward()
    numpy.testing.assert_array_equal(x.grad, [0.0, 3.0, 3.0, 3.0, 0.0])


def test_numpy_float64_bounds_do_not_upcast():
    y = F.clip(numpy.ones(3, numpy.float32), numpy.float64(0.0), numpy.float64(0.5))
    assert y.dtype == numpy.float32


def test_both_bounds_none_rejected():
    with pytest.raises(ValueError, match="clip: x_min and x_max are both None"):
        F.clip(numpy.ones(3, numpy.float32), None, None)


def test_inverted_bounds_rejected():
    with pytest.raises(ValueError, match="clip: x_min=1.0 must be less than x_max=-1.0"):
        F.clip(numpy.ones(3, numpy.float32), 1.0, -1.0)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="clip: x must be a floating-point array"):
        F.clip(numpy.arange(3), 0.0, 1.0)
