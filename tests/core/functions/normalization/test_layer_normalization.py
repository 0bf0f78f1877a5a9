import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product([
    [{"shape": (4, 5), "gshape": (5,)}, {"shape": (2, 3, 4), "gshape": (4,)},
     {"shape": (2, 3, 4), "gshape": (3, 4)}],
    [{"dtype": numpy.float32}, {"dtype": numpy.float64}],
]))
class TestLayerNormalization(testing.FunctionTestCase):
    eps = 1e-5

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(0.5, 1.5, self.gshape).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, self.gshape).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return F.layer_normalization(x, gamma, beta, eps=self.eps),

    def forward_expected(self, inputs):
        x, gamma, beta = (a.astype(numpy.float64) for a in inputs)
        lead = x.ndim - gamma.ndim
        rows = x.reshape(x.shape[:lead] + (-1,))
        centered = rows - rows.mean(axis=-1, keepdims=True)
        y = centered / numpy.sqrt(rows.var(axis=-1, keepdims=True) + self.eps)
        return (y.reshape(x.shape) * gamma + beta).astype(self.dtype),


def test_trailing_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"layer_normalization: x.shape=\(2, 5\) must be "
                                         r"\(batch..., \*gamma.shape\) with gamma.shape=\(4,\)"):
        F.layer_normalization(numpy.ones((2, 5), numpy.float32), numpy.ones(4, numpy.float32),
                              numpy.zeros(4, numpy.float32))


def test_no_batch_axis_rejected():
    with pytest.raises(ValueError, match=r"layer_normalization: x.shape=\(4,\) must be"):
        F.layer_normalization(numpy.ones(4, numpy.float32), numpy.ones(4, numpy.float32),
                              numpy.zeros(4, numpy.float32))


def test_gamma_beta_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"layer_normalization: gamma.shape=\(4,\) does not match "
                                         r"beta.shape=\(3,\)"):
        F.layer_normalization(numpy.ones((2, 4), numpy.float32), numpy.ones(4, numpy.float32),
                              numpy.zeros(3, numpy.float32))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="layer_normalization: x must be a floating-point array"):
        F.layer_normalization(numpy.ones((2, 4), numpy.int32), numpy.ones(4, numpy.float32),
                              numpy.zeros(4, numpy.float32))


def test_mixed_dtypes_rejected():
    with pytest.raises(TypeError, match=r"layer_normalization: dtypes must match"):
        F.layer_normalization(numpy.ones((2, 4), numpy.float32), numpy.ones(4),
                              numpy.zeros(4, numpy.float32))


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("shape", [(0, 4), (2, 0, 4)])
def test_empty_batch_gives_empty_output_and_zero_parameter_gradients(dtype, shape):
    x = kusari.Variable(numpy.zeros(shape, dtype))
    gamma = kusari.Variable(numpy.random.RandomState(0).uniform(0.5, 1.5, 4).astype(dtype))
    beta = kusari.Variable(numpy.zeros(4, dtype))
    y = F.layer_normalization(x, gamma, beta)
    assert y.shape == shape and y.dtype == dtype
    F.sum(y).backward()
    assert x.grad.shape == shape
    numpy.testing.assert_array_equal(gamma.grad, numpy.zeros(4, dtype))
    numpy.testing.assert_array_equal(beta.grad, numpy.zeros(4, dtype))
