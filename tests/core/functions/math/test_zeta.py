import numpy
import pytest
import scipy.special

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "x": [2.0, 3.5, "array"],
    "shape": [(3, 2), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestZeta(testing.FunctionTestCase):
    def setup(self):
        self.x_value = numpy.array([2.0, 4.5], self.dtype) if self.x == "array" else self.x
        if self.x == "array":
            self.shape = self.shape + (2,)

    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(0.5, 3, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.zeta(self.x_value, inputs[0]),

    def forward_expected(self, inputs):
        x = numpy.asarray(self.x_value, numpy.float64)
        return numpy.asarray(scipy.special.zeta(x, inputs[0].astype(numpy.float64))).astype(self.dtype),


def test_zeta_of_two_at_one_is_basel():
    y = F.zeta(2.0, numpy.array([1.0]))
    numpy.testing.assert_allclose(y.array, [numpy.pi ** 2 / 6], rtol=1e-12)


def test_x_is_a_constant():
    x = kusari.Variable(numpy.array([2.0, 3.0], numpy.float32))
    q = kusari.Variable(numpy.array([1.5, 2.5], numpy.float32))
    F.sum(F.zeta(x, q)).backward()
    assert x.grad is None
    assert q.grad.dtype == numpy.float32


def test_integer_q_rejected():
    with pytest.raises(TypeError, match="zeta: q must be a floating-point array"):
        F.zeta(2.0, numpy.arange(1, 4))


def test_non_broadcastable_shapes_rejected():
    with pytest.raises(ValueError, match=r"zeta: shapes do not broadcast \(x.shape=\(2,\), q.shape=\(3,\)\)"):
        F.zeta(numpy.array([2.0, 3.0]), numpy.ones(3))
