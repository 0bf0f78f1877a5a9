import numpy
import pytest
import scipy.special

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "beta_shape": [(), (3,), (3, 2)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSwish(testing.FunctionTestCase):
    x_shape = (4, 3, 2)

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.x_shape)
        beta = numpy.asarray(numpy.random.uniform(-1.5, 1.5, self.beta_shape))
        return x.astype(self.dtype), beta.astype(self.dtype)

    def forward(self, inputs, device):
        return F.swish(*inputs),

    def forward_expected(self, inputs):
        x, beta = (a.astype(numpy.float64) for a in inputs)
        beta = beta.reshape((1,) + self.beta_shape + (1,) * (2 - len(self.beta_shape)))
        return (x * scipy.special.expit(beta * x)).astype(self.dtype),


def test_beta_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"swish: beta.shape=\(2, 3\) must equal x.shape\[1:3\]"):
        F.swish(numpy.ones((2, 3), numpy.float32), numpy.ones((2, 3), numpy.float32))


def test_beta_dtype_mismatch_rejected():
    with pytest.raises(TypeError, match="swish: dtypes must match"):
        F.swish(numpy.ones((2, 3), numpy.float64), numpy.ones(3, numpy.float32))


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
def test_without_beta_is_silu(dtype):
    x = numpy.random.RandomState(0).uniform(-3, 3, (4, 3)).astype(dtype)
    y = F.swish(x)
    assert y.dtype == dtype
    expected = x.astype(numpy.float64) * scipy.special.expit(x.astype(numpy.float64))
    testing.assert_allclose(y.array, expected.astype(dtype), **testing.tolerance(dtype))
    testing.assert_allclose(y.array, F.swish(x, numpy.ones(3, dtype)).array, **testing.tolerance(dtype))
