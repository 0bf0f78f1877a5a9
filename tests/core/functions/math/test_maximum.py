import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "name": ["maximum", "minimum"],
    "shapes": [((3, 2), (3, 2)), ((3, 2), (2,)), ((2,), (3, 2)), ((), ())],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestMaximumMinimum(testing.FunctionTestCase):
    def generate_inputs(self):
        # Build the larger operand as the smaller one plus a gap of random sign and size >= 0.2,
        # so that no pair of compared elements is close to a tie (the kink).
        s1, s2 = self.shapes
        full = numpy.broadcast_shapes(s1, s2)
        base = numpy.asarray(numpy.random.uniform(-1, 1, s2 if s1 == full else s1))
        gap = numpy.random.uniform(0.2, 1, full) * numpy.random.choice([-1, 1], full)
        other = numpy.broadcast_to(base, full) + gap
        x1, x2 = (other, base) if s1 == full else (base, other)
        return x1.astype(self.dtype), x2.astype(self.dtype)

    def forward(self, inputs, device):
        return getattr(F, self.name)(*inputs),

    def forward_expected(self, inputs):
        x1, x2 = (x.astype(numpy.float64) for x in inputs)
        return numpy.asarray(getattr(numpy, self.name)(x1, x2)).astype(self.dtype),


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_ties_send_the_gradient_to_x1(name):
    x1 = kusari.Variable(numpy.array([1.0, 2.0], numpy.float32))
    x2 = kusari.Variable(numpy.array([1.0, 5.0], numpy.float32))
    F.sum(getattr(F, name)(x1, x2)).backward()
    x1_wins = [1.0, 0.0] if name == "maximum" else [1.0, 1.0]
    numpy.testing.assert_array_equal(x1.grad, x1_wins)
    numpy.testing.assert_array_equal(x2.grad, 1.0 - numpy.array(x1_wins))


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_mixed_dtypes_rejected(name):
    with pytest.raises(TypeError, match=rf"{name}: dtypes must match \(x1.dtype=float32, "
                                        r"x2.dtype=float64\)"):
        getattr(F, name)(numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float64))


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_non_broadcastable_shapes_rejected(name):
    with pytest.raises(ValueError, match=rf"{name}: shapes do not broadcast"):
        getattr(F, name)(numpy.ones(2, numpy.float32), numpy.ones(3, numpy.float32))


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_integer_input_rejected(name):
    with pytest.raises(TypeError, match=f"{name}: x1 must be a floating-point array"):
        getattr(F, name)(numpy.arange(2), numpy.ones(2, numpy.float32))
