import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestGaussian(testing.FunctionTestCase):
    def setup(self):
        self.eps = numpy.asarray(numpy.random.standard_normal(self.shape))

    def generate_inputs(self):
        mean = numpy.asarray(numpy.random.uniform(-1, 1, self.shape)).astype(self.dtype)
        ln_var = numpy.asarray(numpy.random.uniform(-1, 1, self.shape)).astype(self.dtype)
        return mean, ln_var

    def forward(self, inputs, device):
        mean, ln_var = inputs
        return F.gaussian(mean, ln_var, eps=device.send(self.eps.astype(mean.dtype))),

    def forward_expected(self, inputs):
        mean, ln_var = (a.astype(numpy.float64) for a in inputs)
        return (mean + numpy.sqrt(numpy.exp(ln_var)) * self.eps).astype(self.dtype),


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_samples_have_requested_mean_and_variance(dtype):
    numpy.random.seed(0)
    n = 100000
    mean = numpy.full(n, 1.5, dtype)
    ln_var = numpy.full(n, numpy.log(0.25), dtype)
    y, eps = F.gaussian(mean, ln_var, return_eps=True)
    assert y.dtype == dtype and eps.dtype == dtype
    # standard errors: 0.0016 for the mean, 0.0011 for the standard deviation
    assert abs(y.array.mean() - 1.5) < 0.01
    assert abs(y.array.std() - 0.5) < 0.01
    numpy.testing.assert_allclose(y.array, mean + 0.5 * eps, rtol=1e-5)


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"gaussian: shapes must match "
                                         r"\(mean.shape=\(3,\), ln_var.shape=\(2,\)\)"):
        F.gaussian(numpy.zeros(3, numpy.float32), numpy.zeros(2, numpy.float32))


def test_dtype_mismatch_rejected():
    with pytest.raises(TypeError, match="gaussian: dtypes must match"):
        F.gaussian(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float64))


def test_eps_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"gaussian: shapes must match "
                                         r"\(mean.shape=\(3,\), eps.shape=\(4,\)\)"):
        F.gaussian(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float32),
                   eps=numpy.zeros(4, numpy.float32))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="gaussian: mean must be a floating-point array"):
        F.gaussian(numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32))
