import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product([
    [{"shape": (3, 6, 2, 2), "groups": 3}, {"shape": (2, 4), "groups": 2},
     {"shape": (2, 6, 5), "groups": 1}],
    [{"dtype": numpy.float32}, {"dtype": numpy.float64}],
]))
class TestGroupNormalization(testing.FunctionTestCase):
    eps = 1e-5

    def generate_inputs(self):
        c = self.shape[1]
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(0.5, 1.5, c).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, c).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return F.group_normalization(x, self.groups, gamma, beta, eps=self.eps),

    def forward_expected(self, inputs):
        x, gamma, beta = (a.astype(numpy.float64) for a in inputs)
        n, c = x.shape[:2]
        y = numpy.empty_like(x)
        size = c // self.groups
        for i in range(n):
            for k in range(self.groups):
                block = x[i, k * size:(k + 1) * size]
                y[i, k * size:(k + 1) * size] = (block - block.mean()) / numpy.sqrt(block.var() + self.eps)
        expanded = (1, c) + (1,) * (x.ndim - 2)
        return (y * gamma.reshape(expanded) + beta.reshape(expanded)).astype(self.dtype),


def _params(c=6, dtype=numpy.float32):
    return numpy.ones(c, dtype), numpy.zeros(c, dtype)


def test_channels_not_divisible_rejected():
    with pytest.raises(ValueError, match=r"group_normalization: x.shape\[1\]=6 is not divisible by groups=4"):
        F.group_normalization(numpy.ones((2, 6), numpy.float32), 4, *_params())


def test_bad_groups_rejected():
    with pytest.raises(TypeError, match="group_normalization: groups must be a positive int, got 2.0"):
        F.group_normalization(numpy.ones((2, 6), numpy.float32), 2.0, *_params())  # Chainer: TypeError
    with pytest.raises(ValueError, match="group_normalization: groups must be a positive int, got 0"):
        F.group_normalization(numpy.ones((2, 6), numpy.float32), 0, *_params())


def test_gamma_shape_checked():
    with pytest.raises(ValueError, match=r"group_normalization: gamma.shape=\(5,\) and beta.shape=\(6,\) "
                                         r"must both be \(6,\)"):
        F.group_normalization(numpy.ones((2, 6), numpy.float32), 2, numpy.ones(5, numpy.float32),
                              numpy.zeros(6, numpy.float32))


def test_one_dimensional_input_rejected():
    with pytest.raises(ValueError, match="group_normalization: x must have at least 2 dimensions"):
        F.group_normalization(numpy.ones(6, numpy.float32), 2, *_params())


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="group_normalization: x must be a floating-point array"):
        F.group_normalization(numpy.ones((2, 6), numpy.int32), 2, *_params())


def test_mixed_parameter_dtypes_rejected():
    # x may differ from the parameters (tests/core/functions/test_mixed_dtypes.py), gamma and beta not
    gamma, _ = _params(dtype=numpy.float64)
    _, beta = _params(dtype=numpy.float32)
    with pytest.raises(TypeError, match=r"group_normalization: dtypes must match \(gamma.dtype=float64, "
                                        r"beta.dtype=float32"):
        F.group_normalization(numpy.ones((2, 6), numpy.float32), 2, gamma, beta)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("shape", [(0, 6), (0, 6, 2, 3)])
def test_empty_batch_gives_empty_output_and_zero_parameter_gradients(dtype, shape):
    x = kusari.Variable(numpy.zeros(shape, dtype))
    gamma = kusari.Variable(numpy.random.RandomState(0).uniform(0.5, 1.5, 6).astype(dtype))
    beta = kusari.Variable(numpy.zeros(6, dtype))
    y = F.group_normalization(x, 3, gamma, beta)
    assert y.shape == shape and y.dtype == dtype
    F.sum(y).backward()
    assert x.grad.shape == shape
    numpy.testing.assert_array_equal(gamma.grad, numpy.zeros(6, dtype))
    numpy.testing.assert_array_equal(beta.grad, numpy.zeros(6, dtype))
