import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shapes": [((3, 2), (3, 2)), ((3, 2), (2,)), ((), ())],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestFmod(testing.FunctionTestCase):
    def generate_inputs(self):
        xs, ds = self.shapes
        divisor = numpy.asarray(numpy.random.uniform(0.5, 2, ds) * numpy.random.choice([-1, 1], ds))
        # x / divisor = k + f with f in [0.2, 0.8]: away from the jumps at integer quotients.
        quotient = numpy.random.randint(-2, 3, xs) + numpy.random.uniform(0.2, 0.8, xs)
        x = numpy.broadcast_to(divisor, xs) * quotient
        return x.astype(self.dtype), divisor.astype(self.dtype)

    def forward(self, inputs, device):
        return F.fmod(*inputs),

    def forward_expected(self, inputs):
        x, d = (a.astype(numpy.float64) for a in inputs)
        return numpy.asarray(x - numpy.trunc(x / d) * d).astype(self.dtype),


def test_result_takes_the_sign_of_x():
    y = F.fmod(numpy.array([-7.0, 7.0, -7.0]), numpy.array([3.0, -3.0, -3.0])).array
    numpy.testing.assert_array_equal(y, [-1.0, 1.0, -1.0])


def test_mixed_dtypes_rejected():
    with pytest.raises(TypeError, match=r"fmod: dtypes must match \(x.dtype=float32, "
                                        r"divisor.dtype=float64\)"):
        F.fmod(numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float64))


def test_non_broadcastable_shapes_rejected():
    with pytest.raises(ValueError, match=r"fmod: shapes do not broadcast "
                                         r"\(x.shape=\(2,\), divisor.shape=\(3,\)\)"):
        F.fmod(numpy.ones(2, numpy.float32), numpy.ones(3, numpy.float32))


def test_integer_divisor_rejected():
    with pytest.raises(TypeError, match="fmod: divisor must be a floating-point array"):
        F.fmod(numpy.ones(2, numpy.float32), numpy.arange(1, 3))
