import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSign(testing.FunctionTestCase):
    skip_backward_test = True  # piecewise constant: no gradient path, like Chainer

    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(-3, 3, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.sign(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray((x > 0).astype(numpy.float64) - (x < 0)).astype(self.dtype),


def test_zero_and_integers():
    numpy.testing.assert_array_equal(F.sign(numpy.array([-4, 0, 7])).array, [-1, 0, 1])
    assert F.sign(numpy.array([0.0], numpy.float32)).array[0] == 0.0


def test_no_gradient_path():
    y = F.sign(kusari.Variable(numpy.array([0.3, -1.7], numpy.float32)))
    assert not y.requires_grad and y.creator is None


def test_complex_input_rejected():
    with pytest.raises(TypeError, match="sign: x must be a real numeric array, got dtype complex128"):
        F.sign(numpy.array([1j]))
