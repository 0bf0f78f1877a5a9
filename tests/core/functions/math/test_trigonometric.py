import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing

DTYPES = [numpy.float32, numpy.float64]
# Input ranges keep away from tan's poles and the arc functions' infinite slopes at +-1.
RANGES = {"sin": (-3, 3), "cos": (-3, 3), "tan": (-1.2, 1.2), "arcsin": (-0.8, 0.8),
          "arccos": (-0.8, 0.8), "arctan": (-3, 3)}


@testing.parameterize(*testing.product({
    "name": sorted(RANGES),
    "shape": [(3, 2), ()],
    "dtype": DTYPES,
}))
class TestUnaryTrigonometric(testing.FunctionTestCase):
    def generate_inputs(self):
        lo, hi = RANGES[self.name]
        return numpy.asarray(numpy.random.uniform(lo, hi, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0]),

    def forward_expected(self, inputs):
        return getattr(numpy, self.name)(inputs[0].astype(numpy.float64)).astype(self.dtype),


@testing.parameterize(*testing.product({
    "shapes": [((3, 2), (3, 2)), ((3, 2), (2,)), ((1, 2), (3, 1)), ((), ())],
    "dtype": DTYPES,
}))
class TestArctan2(testing.FunctionTestCase):
    def generate_inputs(self):
        x1 = numpy.asarray(numpy.random.uniform(-2, 2, self.shapes[0])).astype(self.dtype)
        # x2 > 0 keeps the points away from the branch cut on the negative x-axis and the origin.
        x2 = numpy.asarray(numpy.random.uniform(0.5, 2, self.shapes[1])).astype(self.dtype)
        return x1, x2

    def forward(self, inputs, device):
        return F.arctan2(*inputs),

    def forward_expected(self, inputs):
        x1, x2 = (x.astype(numpy.float64) for x in inputs)
        return numpy.arctan2(x1, x2).astype(self.dtype),


def test_arctan2_covers_all_quadrants():
    x1 = numpy.array([1.0, 1.0, -1.0, -1.0], numpy.float32)
    x2 = numpy.array([1.0, -1.0, -1.0, 1.0], numpy.float32)
    y = F.arctan2(x1, x2).array
    numpy.testing.assert_allclose(y, numpy.pi * numpy.array([0.25, 0.75, -0.75, -0.25]), rtol=1e-6)


@pytest.mark.parametrize("name", sorted(RANGES) + ["arctan2"])
def test_integer_input_rejected(name):
    x = numpy.arange(3)
    args = (x, numpy.ones(3, numpy.float32)) if name == "arctan2" else (x,)
    with pytest.raises(TypeError, match=f"{name}: x1? must be a floating-point array"):
        getattr(F, name)(*args)


def test_arctan2_mixed_dtypes_rejected():
    with pytest.raises(TypeError, match=r"arctan2: dtypes must match \(x1.dtype=float32, "
                                        r"x2.dtype=float64\)"):
        F.arctan2(numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float64))


def test_arctan2_non_broadcastable_shapes_rejected():
    with pytest.raises(ValueError, match=r"arctan2: shapes do not broadcast "
                                         r"\(x1.shape=\(3, 2\), x2.shape=\(4,\)\)"):
        F.arctan2(numpy.ones((3, 2), numpy.float32), numpy.ones(4, numpy.float32))


def test_only_requested_gradient_is_computed():
    x1 = kusari.Variable(numpy.array([0.5, 1.5], numpy.float32))
    x2 = kusari.Variable(numpy.array([1.0, 2.0], numpy.float32), requires_grad=False)
    F.sum(F.arctan2(x1, x2)).backward()
    numpy.testing.assert_allclose(x1.grad, [1.0 / 1.25, 2.0 / 6.25], rtol=1e-6)
    assert x2.grad is None
