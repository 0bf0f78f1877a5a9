import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "reduce": ["sum", "mean", "no"],
    "shape": [(3, 4), (2,)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestGaussianKLDivergence(testing.FunctionTestCase):
    def generate_inputs(self):
        mean = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        ln_var = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return mean, ln_var

    def forward(self, inputs, device):
        return F.gaussian_kl_divergence(*inputs, reduce=self.reduce),

    def forward_expected(self, inputs):
        mu, ln_var = (v.astype(numpy.float64) for v in inputs)
        var = numpy.exp(ln_var)
        # KL(N(mu, var) || N(0, 1)) = log(1 / sigma) + (var + mu^2) / 2 - 1 / 2
        kl = -0.5 * ln_var + (var + mu ** 2) / 2 - 0.5
        if self.reduce == "sum":
            kl = kl.sum()
        elif self.reduce == "mean":
            kl = kl.mean()
        return numpy.asarray(kl).astype(self.dtype),


def test_dtype_mismatch_rejected():
    with pytest.raises(TypeError, match=r"gaussian_kl_divergence: dtypes must match \(mean.dtype=float32, ln_var.dtype=float64\)"):
        F.gaussian_kl_divergence(numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.float64))


def test_bad_reduce_rejected():
    with pytest.raises(ValueError, match="gaussian_kl_divergence: reduce must be 'sum' or 'mean' or 'no'"):
        F.gaussian_kl_divergence(numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.float32), reduce="max")
