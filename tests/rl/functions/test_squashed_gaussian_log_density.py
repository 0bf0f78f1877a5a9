import math

import numpy
import pytest

import kusari.distributions as D
import kusari.functions as F
from kusari import testing
from kusari.rl import functions as RF


@testing.parameterize(*testing.product({
    "shape": [(4, 3), (2, 3, 1), (5,)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSquashedGaussianLogDensity(testing.FunctionTestCase):
    def generate_inputs(self):
        u = numpy.random.uniform(-2, 2, self.shape)
        loc = numpy.random.uniform(-1, 1, self.shape)
        log_scale = numpy.random.uniform(-1, 0.5, self.shape)
        return tuple(a.astype(self.dtype) for a in (u, loc, log_scale))

    def forward(self, inputs, device):
        return RF.squashed_gaussian_log_density(*inputs),

    def forward_expected(self, inputs):
        u, loc, log_scale = (a.astype(numpy.float64) for a in inputs)
        scale = numpy.exp(log_scale)
        normal = -0.5 * ((u - loc) / scale) ** 2 - numpy.log(scale * math.sqrt(2 * math.pi))
        return numpy.asarray((normal - numpy.log1p(-numpy.tanh(u) ** 2)).sum(axis=-1)).astype(self.dtype),


def test_equals_the_composed_densities():
    rng = numpy.random.RandomState(0)
    u, loc, log_scale = (rng.uniform(-2, 2, (6, 2)).astype(numpy.float32) for _ in range(3))
    normal = D.Independent(D.Normal(loc, log_scale=log_scale), 1).log_prob(u)
    jacobian = F.sum(F.log(1 - F.tanh(u) ** 2), axis=-1)
    numpy.testing.assert_allclose(RF.squashed_gaussian_log_density(u, loc, log_scale).array,
                                  (normal - jacobian).array, rtol=1e-5)


def test_stays_finite_where_tanh_saturates():
    u = numpy.array([[-30.0, 30.0]], numpy.float32)
    y = RF.squashed_gaussian_log_density(u, numpy.zeros_like(u), numpy.zeros_like(u))
    assert y.dtype == numpy.float32 and numpy.isfinite(y.array).all()


def test_mismatched_shapes_are_refused():
    with pytest.raises(ValueError, match=r"squashed_gaussian_log_density: .*\(2, 3\), \(2, 3\), \(2, 1\)"):
        RF.squashed_gaussian_log_density(numpy.zeros((2, 3)), numpy.zeros((2, 3)), numpy.zeros((2, 1)))


def test_mixed_dtypes_are_refused():
    a32, a64 = numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3))
    with pytest.raises(TypeError, match="squashed_gaussian_log_density"):
        RF.squashed_gaussian_log_density(a32, a32, a64)


def test_integer_input_is_refused():
    with pytest.raises(TypeError, match="squashed_gaussian_log_density: u"):
        RF.squashed_gaussian_log_density(numpy.zeros((2, 3), int), numpy.zeros((2, 3)),
                                         numpy.zeros((2, 3)))
