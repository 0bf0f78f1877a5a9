import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "name": ["ceil", "floor", "fix"],
    "shape": [(3, 4), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestRounding(testing.FunctionTestCase):
    skip_backward_test = True  # piecewise constant: no gradient path, like Chainer

    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(-3, 3, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        toward_zero = numpy.where(x < 0, numpy.ceil(x), numpy.floor(x))
        y = {"ceil": numpy.ceil(x), "floor": numpy.floor(x), "fix": toward_zero}[self.name]
        return numpy.asarray(y).astype(self.dtype),


def test_known_values():
    x = numpy.array([-1.5, -0.5, 0.5, 1.5, 2.0], numpy.float32)
    numpy.testing.assert_array_equal(F.ceil(x).array, [-1, 0, 1, 2, 2])
    numpy.testing.assert_array_equal(F.floor(x).array, [-2, -1, 0, 1, 2])
    numpy.testing.assert_array_equal(F.fix(x).array, [-1, 0, 0, 1, 2])


@pytest.mark.parametrize("name", ["ceil", "floor", "fix"])
def test_no_gradient_path(name):
    x = kusari.Variable(numpy.array([0.3, -1.7], numpy.float32))
    y = getattr(F, name)(x)
    assert not y.requires_grad and y.creator is None


@pytest.mark.parametrize("name", ["ceil", "floor", "fix"])
def test_integer_input_keeps_its_dtype(name):
    x = numpy.array([-2, 0, 3], numpy.int32)
    y = getattr(F, name)(x)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, x)


@pytest.mark.parametrize("name", ["ceil", "floor", "fix"])
def test_boolean_input_rejected(name):
    with pytest.raises(TypeError, match=f"{name}: x must be a real numeric array, got dtype bool"):
        getattr(F, name)(numpy.array([True, False]))


def test_non_array_rejected():
    with pytest.raises(TypeError, match="floor: x must be a Variable or an array, got list"):
        F.floor([1.5, 2.5])
