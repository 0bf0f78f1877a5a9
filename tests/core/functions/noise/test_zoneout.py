import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "ratio": [0.5, 0.2],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestZoneout(testing.FunctionTestCase):
    # Which elements keep h is drawn inside the function, so there is no reference output;
    # the forward semantics are checked by the property tests below. forward reseeds the RNG so
    # that the repeated calls of the gradient checks draw the same flags.
    skip_forward_test = True

    def generate_inputs(self):
        h = numpy.asarray(numpy.random.uniform(-1, 1, self.shape)).astype(self.dtype)
        x = numpy.asarray(numpy.random.uniform(-1, 1, self.shape)).astype(self.dtype)
        return h, x

    def forward(self, inputs, device):
        numpy.random.seed(1)
        return F.zoneout(*inputs, ratio=self.ratio),


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_keeps_h_with_probability_ratio(dtype):
    numpy.random.seed(0)
    h = numpy.zeros((400, 250), dtype)
    x = numpy.ones((400, 250), dtype)
    y = F.zoneout(h, x, ratio=0.3).array
    assert y.dtype == dtype
    assert set(numpy.unique(y)) <= {0.0, 1.0}  # every element is h's or x's
    # 100000 Bernoulli(0.3) draws: the standard deviation of the fraction is 0.0014
    assert abs((y == 0).mean() - 0.3) < 0.01


def test_gradient_goes_to_the_chosen_input():
    numpy.random.seed(0)
    h = kusari.Variable(numpy.zeros(1000, numpy.float32))
    x = kusari.Variable(numpy.ones(1000, numpy.float32))
    y = F.zoneout(h, x)
    y.grad = numpy.full(1000, 2.0, numpy.float32)
    y.backward()
    took_x = y.array == 1
    assert 0 < took_x.sum() < 1000
    numpy.testing.assert_array_equal(x.grad, numpy.where(took_x, 2.0, 0.0))
    numpy.testing.assert_array_equal(h.grad, numpy.where(took_x, 0.0, 2.0))


def test_returns_x_outside_training():
    h = numpy.zeros(5, numpy.float32)
    x = numpy.ones(5, numpy.float32)
    with kusari.using_config("train", False):
        y = F.zoneout(h, x, ratio=0.9)
    numpy.testing.assert_array_equal(y.array, x)


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"zoneout: shapes must match \(h.shape=\(3,\), x.shape=\(4,\)\)"):
        F.zoneout(numpy.zeros(3, numpy.float32), numpy.zeros(4, numpy.float32))


def test_dtype_mismatch_rejected():
    with pytest.raises(TypeError, match="zoneout: dtypes must match"):
        F.zoneout(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float64))


def test_bad_ratio_rejected():
    with pytest.raises(ValueError, match=r"zoneout: ratio must be in \[0, 1\], got ratio=1.5"):
        F.zoneout(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float32), 1.5)


def test_ratio_one_keeps_h_everywhere():
    h, x = kusari.Variable(numpy.zeros(4, numpy.float32)), kusari.Variable(numpy.ones(4, numpy.float32))
    y = F.zoneout(h, x, 1.0)
    numpy.testing.assert_array_equal(y.array, h.array)
    y.grad = numpy.ones(4, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(h.grad, numpy.ones(4, numpy.float32))
    numpy.testing.assert_array_equal(x.grad, numpy.zeros(4, numpy.float32))
