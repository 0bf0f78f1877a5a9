import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "train": [True, False],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestRReLU(testing.FunctionTestCase):
    l, u = 0.1, 0.4

    def setup(self):
        self.r = numpy.asarray(numpy.random.uniform(self.l, self.u, self.shape))

    def generate_inputs(self):
        x = numpy.random.uniform(0.1, 1, self.shape) * numpy.random.choice([-1, 1], self.shape)
        return numpy.asarray(x).astype(self.dtype),

    def forward(self, inputs, device):
        x = inputs[0]
        r = device.send(self.r.astype(x.dtype))
        with kusari.using_config("train", self.train):
            return F.rrelu(x, self.l, self.u, r=r),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        slope = self.r if self.train else (self.l + self.u) / 2
        return numpy.asarray(numpy.where(x >= 0, x, slope * x)).astype(self.dtype),


def test_random_slopes_lie_in_range_and_are_returned():
    numpy.random.seed(1)
    x = -numpy.ones((50, 40), numpy.float32)
    y, r = F.rrelu(x, 0.2, 0.3, return_r=True)
    assert r.shape == x.shape and r.dtype == numpy.float32
    assert 0.2 <= r.min() and r.max() < 0.3
    assert r.std() > 0.01  # slopes differ per element
    numpy.testing.assert_array_equal(y.array, -r)
    y2 = F.rrelu(x, r=r)
    numpy.testing.assert_array_equal(y2.array, y.array)


def test_test_mode_uses_mean_slope():
    x = numpy.array([-2.0, 3.0], numpy.float32)
    with kusari.using_config("train", False):
        y, r = F.rrelu(x, 0.1, 0.3, return_r=True)
    numpy.testing.assert_allclose(y.array, [-0.4, 3.0], rtol=1e-6)
    numpy.testing.assert_allclose(r, [0.2, 0.2], rtol=1e-6)


@pytest.mark.parametrize("l,u,match", [
    (-0.1, 0.3, r"rrelu: l must be in \[0, 1\), got l=-0.1"),
    (0.1, 1.0, r"rrelu: u must be in \[0, 1\), got u=1.0"),
    (0.3, 0.2, "rrelu: l must be less than u, got l=0.3, u=0.2"),
])
def test_bad_bounds_rejected(l, u, match):  # NOQA: E741 (Chainer's argument name)
    with pytest.raises(ValueError, match=match):
        F.rrelu(numpy.ones(2, numpy.float32), l, u)


def test_r_with_other_dtype_rejected():
    with pytest.raises(TypeError, match="rrelu: dtypes must match"):
        F.rrelu(numpy.ones(2, numpy.float32), r=numpy.ones(2, numpy.float64))


def test_r_with_other_shape_rejected():
    with pytest.raises(ValueError, match=r"rrelu: shapes must match \(x.shape=\(2,\), r.shape=\(3,\)\)"):
        F.rrelu(numpy.ones(2, numpy.float32), r=numpy.ones(3, numpy.float32))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="rrelu: x must be a floating-point array"):
        F.rrelu(numpy.arange(3))
