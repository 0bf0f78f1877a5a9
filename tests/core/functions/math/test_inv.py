import numpy
import pytest

import kusari.functions as F
from kusari import testing


def well_conditioned(shape, dtype):
    """Random matrices near the identity (invertible, condition number small)."""
    n = shape[-1]
    return (numpy.eye(n) + numpy.random.uniform(-0.3, 0.3, shape)).astype(dtype)


@testing.parameterize(*testing.product({
    "fn": ["inv", "batch_inv"],
    "n": [1, 3],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestInv(testing.FunctionTestCase):
    def setup(self):
        # float32 inversion loses a few digits to conditioning, so compare like a backward pass.
        self.check_forward_options = {"atol": 1e-4, "rtol": 1e-4}

    def generate_inputs(self):
        shape = (self.n, self.n) if self.fn == "inv" else (2, self.n, self.n)
        return well_conditioned(shape, self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.fn)(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.linalg.inv(inputs[0].astype(numpy.float64)).astype(self.dtype),


def test_inv_times_input_is_identity():
    a = well_conditioned((4, 4), numpy.float64)
    numpy.testing.assert_allclose(F.inv(a).array @ a, numpy.eye(4), atol=1e-12)


def test_inv_shape_checks():
    with pytest.raises(ValueError, match="inv: a must be 2-dimensional, got 3"):
        F.inv(numpy.ones((2, 3, 3), numpy.float32))
    with pytest.raises(ValueError, match="batch_inv: a must be 3-dimensional, got 2"):
        F.batch_inv(numpy.ones((3, 3), numpy.float32))
    with pytest.raises(ValueError, match=r"inv: a must hold square matrices, got shape \(2, 3\)"):
        F.inv(numpy.ones((2, 3), numpy.float32))


def test_inv_singular():
    with pytest.raises(ValueError, match="inv: a is singular"):
        F.inv(numpy.zeros((2, 2), numpy.float32))


def test_inv_integer_rejected():
    with pytest.raises(TypeError, match="inv: a must be a floating-point array"):
        F.inv(numpy.eye(2, dtype=numpy.int64))
