import math

import numpy
import pytest
import scipy.special

import kusari
import kusari.functions as F
from kusari import testing

DTYPES = [numpy.float32, numpy.float64]
REFERENCES = {"lgamma": numpy.vectorize(math.lgamma), "digamma": scipy.special.psi}


@testing.parameterize(*testing.product({
    "name": sorted(REFERENCES),
    "shape": [(3, 2), ()],
    "dtype": DTYPES,
}))
class TestLGammaDiGamma(testing.FunctionTestCase):
    def generate_inputs(self):
        # Positive x keeps clear of the poles at 0, -1, -2, ...
        return numpy.asarray(numpy.random.uniform(0.5, 3, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0]),

    def forward_expected(self, inputs):
        y = REFERENCES[self.name](inputs[0].astype(numpy.float64))
        return numpy.asarray(y).astype(self.dtype),


@testing.parameterize(*testing.product({
    "n": [0, 1, 2],
    "shapes": [((3, 2), (3, 2)), ((), (3, 2)), ((), ())],
    "dtype": DTYPES,
}))
class TestPolyGamma(testing.FunctionTestCase):
    def generate_inputs(self):
        n = numpy.full(self.shapes[0], self.n, numpy.int32)
        x = numpy.asarray(numpy.random.uniform(0.5, 3, self.shapes[1])).astype(self.dtype)
        return n, x

    def forward(self, inputs, device):
        return F.polygamma(*inputs),

    def forward_expected(self, inputs):
        n, x = inputs
        return numpy.asarray(scipy.special.polygamma(n, x.astype(numpy.float64))).astype(self.dtype),


def test_polygamma_of_order_one_is_the_trigamma_series():
    x = numpy.array([0.5, 1.0, 2.5])
    k = numpy.arange(200000)[:, None]
    trigamma = (1.0 / (x + k) ** 2).sum(axis=0) + 1.0 / (x + 200000)
    numpy.testing.assert_allclose(F.polygamma(numpy.ones(3, numpy.int64), x).array, trigamma, rtol=1e-9)


def test_lgamma_gradient_is_digamma():
    x = kusari.Variable(numpy.array([0.7, 1.0, 4.0]))
    F.sum(F.lgamma(x)).backward()
    numpy.testing.assert_allclose(x.grad, [scipy.special.psi(0.7), -0.5772156649015329,
                                           1.0 + 0.5 + 1.0 / 3 - 0.5772156649015329], rtol=1e-10)


def test_polygamma_has_no_gradient_for_n():
    n = kusari.Variable(numpy.array([1, 2]))
    x = kusari.Variable(numpy.array([1.5, 2.5], numpy.float32))
    F.sum(F.polygamma(n, x)).backward()
    assert n.grad is None
    assert x.grad.dtype == numpy.float32


def test_polygamma_float_order_rejected():
    with pytest.raises(TypeError, match="polygamma: n must be an integer array, got dtype float32"):
        F.polygamma(numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float32))


def test_polygamma_non_broadcastable_shapes_rejected():
    with pytest.raises(ValueError, match=r"polygamma: shapes do not broadcast "
                                         r"\(n.shape=\(2,\), x.shape=\(3,\)\)"):
        F.polygamma(numpy.ones(2, numpy.int32), numpy.ones(3, numpy.float32))


@pytest.mark.parametrize("name", sorted(REFERENCES) + ["polygamma"])
def test_integer_x_rejected(name):
    args = (numpy.ones(3, numpy.int32), numpy.arange(3)) if name == "polygamma" else (numpy.arange(3),)
    with pytest.raises(TypeError, match=f"{name}: x must be a floating-point array"):
        getattr(F, name)(*args)
