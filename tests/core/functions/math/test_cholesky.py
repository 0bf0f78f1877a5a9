import numpy
import pytest

import kusari.functions as F
from kusari import testing


def _symmetrize(a):
    return (a + a.T) * 0.5


@testing.parameterize(*testing.product({
    "n": [1, 4],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestCholesky(testing.FunctionTestCase):
    def generate_inputs(self):
        m = numpy.random.uniform(-1, 1, (self.n, self.n))
        return (m @ m.T + self.n * numpy.eye(self.n)).astype(self.dtype),

    def forward(self, inputs, device):
        # Only symmetric perturbations keep the input valid, so the checks go through a
        # symmetrization (the numerical directions are otherwise arbitrary matrices).
        return F.cholesky(_symmetrize(inputs[0])),

    def forward_expected(self, inputs):
        return numpy.linalg.cholesky(_symmetrize(inputs[0].astype(numpy.float64))).astype(self.dtype),


def test_cholesky_gradient_is_symmetric():
    import kusari
    a = numpy.array([[4.0, 1.0], [1.0, 3.0]])
    x = kusari.Variable(a)
    y = F.cholesky(x)
    y.grad = numpy.array([[1.0, 0.0], [2.0, -1.0]])
    y.backward()
    numpy.testing.assert_allclose(x.grad, x.grad.T)


def test_cholesky_not_positive_definite():
    with pytest.raises(ValueError, match="cholesky: a is not positive definite"):
        F.cholesky(-numpy.eye(2, dtype=numpy.float32))


def test_cholesky_shape_checks():
    with pytest.raises(ValueError, match="cholesky: a must be 2-dimensional"):
        F.cholesky(numpy.ones((2, 2, 2), numpy.float32))
    with pytest.raises(ValueError, match="cholesky: a must hold square matrices"):
        F.cholesky(numpy.ones((2, 3), numpy.float32))
