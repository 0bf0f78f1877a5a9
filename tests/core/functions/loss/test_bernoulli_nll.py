import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "reduce": ["sum", "mean", "no"],
    "shape": [(3, 4), (5,)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestBernoulliNLL(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(0, 1, self.shape).astype(self.dtype)
        y = numpy.random.uniform(-3, 3, self.shape).astype(self.dtype)
        return x, y

    def forward(self, inputs, device):
        return F.bernoulli_nll(*inputs, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, y = (v.astype(numpy.float64) for v in inputs)
        p = 1 / (1 + numpy.exp(-y))
        loss = -(x * numpy.log(p) + (1 - x) * numpy.log(1 - p))
        if self.reduce == "sum":
            loss = loss.sum()
        elif self.reduce == "mean":
            loss = loss.mean()
        return numpy.asarray(loss).astype(self.dtype),


def test_large_logits_stay_finite():
    y = numpy.array([-1000.0, 1000.0], numpy.float32)
    x = numpy.array([1.0, 0.0], numpy.float32)
    loss = F.bernoulli_nll(x, y, reduce="no")
    numpy.testing.assert_allclose(loss.array, [1000.0, 1000.0])


def test_bad_reduce_rejected():
    with pytest.raises(ValueError, match="bernoulli_nll: reduce must be 'sum' or 'mean' or 'no', got 'max'"):
        F.bernoulli_nll(numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.float32), reduce="max")


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"bernoulli_nll: shapes must match \(x.shape=\(2,\), y.shape=\(3,\)\)"):
        F.bernoulli_nll(numpy.zeros(2, numpy.float32), numpy.zeros(3, numpy.float32))
