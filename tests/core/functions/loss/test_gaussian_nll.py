import numpy
import pytest
from scipy import stats

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "reduce": ["sum", "mean", "no"],
    "shape": [(3, 4), (2,)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestGaussianNLL(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        mean = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        ln_var = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return x, mean, ln_var

    def forward(self, inputs, device):
        return F.gaussian_nll(*inputs, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, mean, ln_var = (v.astype(numpy.float64) for v in inputs)
        nll = -stats.norm.logpdf(x, loc=mean, scale=numpy.exp(ln_var / 2))
        if self.reduce == "sum":
            nll = nll.sum()
        elif self.reduce == "mean":
            nll = nll.mean()
        return numpy.asarray(nll).astype(self.dtype),


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"gaussian_nll: shapes must match \(x.shape=\(2,\), mean.shape=\(2,\), ln_var.shape=\(3,\)\)"):
        F.gaussian_nll(numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.float32),
                       numpy.zeros(3, numpy.float32))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="gaussian_nll: ln_var must be a floating-point array"):
        F.gaussian_nll(numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.float32),
                       numpy.zeros(2, numpy.int32))
