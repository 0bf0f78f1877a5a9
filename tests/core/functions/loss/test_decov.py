import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "reduce": ["half_squared_sum", "no"],
    "shape": [(5, 3), (3, 4)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestDeCov(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.decov(inputs[0], reduce=self.reduce),

    def forward_expected(self, inputs):
        h = inputs[0].astype(numpy.float64)
        cov = numpy.cov(h, rowvar=False, bias=True)
        numpy.fill_diagonal(cov, 0)
        if self.reduce == "half_squared_sum":
            cov = 0.5 * (cov ** 2).sum()
        return numpy.asarray(cov).astype(self.dtype),


def test_must_be_2d():
    with pytest.raises(ValueError, match=r"decov: h must be 2-dimensional, got 3 \(shape=\(2, 2, 2\)"):
        F.decov(numpy.zeros((2, 2, 2), numpy.float32))


def test_bad_reduce_rejected():
    with pytest.raises(ValueError, match="decov: reduce must be 'half_squared_sum' or 'no', got 'mean'"):
        F.decov(numpy.zeros((2, 2), numpy.float32), reduce="mean")
