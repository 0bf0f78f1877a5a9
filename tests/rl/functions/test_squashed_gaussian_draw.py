import numpy
import pytest

from kusari import testing
from kusari.rl import functions as RF


@testing.parameterize(*testing.product({
    "shapes": [((4, 2), (4, 2)), ((3,), (2, 3)), ((2, 1), (3, 2, 2, 1))],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSquashedGaussianDraw(testing.FunctionTestCase):
    def generate_inputs(self):
        shape, eps_shape = self.shapes
        loc = numpy.random.uniform(-1, 1, shape)
        log_scale = numpy.random.uniform(-1, 0.5, shape)
        eps = numpy.random.standard_normal(eps_shape)
        return tuple(a.astype(self.dtype) for a in (loc, log_scale, eps))

    def forward(self, inputs, device):
        return RF.squashed_gaussian_draw(*inputs)

    def forward_expected(self, inputs):
        loc, log_scale, eps = (a.astype(numpy.float64) for a in inputs)
        u = loc + numpy.exp(log_scale) * eps
        return numpy.tanh(u).astype(self.dtype), u.astype(self.dtype)


def test_draw_refuses_an_eps_of_another_shape():
    with pytest.raises(ValueError, match=r"squashed_gaussian_draw: .*\(2, 3\), \(2, 3\), \(2, 2\)"):
        RF.squashed_gaussian_draw(numpy.zeros((2, 3)), numpy.zeros((2, 3)), numpy.zeros((2, 2)))


def test_draw_refuses_mixed_dtypes():
    a32 = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(TypeError, match="squashed_gaussian_draw"):
        RF.squashed_gaussian_draw(a32, a32, numpy.zeros((2, 3)))
