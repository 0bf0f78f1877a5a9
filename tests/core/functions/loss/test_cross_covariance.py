import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "reduce": ["half_squared_sum", "no"],
    "shapes": [((5, 3), (5, 2)), ((4, 1), (4, 4))],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestCrossCovariance(testing.FunctionTestCase):
    def generate_inputs(self):
        y = numpy.random.uniform(-1, 1, self.shapes[0]).astype(self.dtype)
        z = numpy.random.uniform(-1, 1, self.shapes[1]).astype(self.dtype)
        return y, z

    def forward(self, inputs, device):
        return F.cross_covariance(*inputs, reduce=self.reduce),

    def forward_expected(self, inputs):
        y, z = (v.astype(numpy.float64) for v in inputs)
        m = y.shape[1]
        # Population cross-covariance block of the joint covariance matrix.
        cov = numpy.cov(y, z, rowvar=False, bias=True)[:m, m:]
        if self.reduce == "half_squared_sum":
            cov = 0.5 * (cov ** 2).sum()
        return numpy.asarray(cov).astype(self.dtype),


def test_batch_mismatch_rejected():
    with pytest.raises(ValueError, match=r"cross_covariance: y.shape\[0\]=3 does not match z.shape\[0\]=4"):
        F.cross_covariance(numpy.zeros((3, 2), numpy.float32), numpy.zeros((4, 2), numpy.float32))


def test_must_be_2d():
    with pytest.raises(ValueError, match="cross_covariance: z must be 2-dimensional, got 1"):
        F.cross_covariance(numpy.zeros((3, 2), numpy.float32), numpy.zeros(3, numpy.float32))


def test_bad_reduce_rejected():
    with pytest.raises(ValueError, match="cross_covariance: reduce must be 'half_squared_sum' or 'no', got 'sum'"):
        F.cross_covariance(numpy.zeros((3, 2), numpy.float32), numpy.zeros((3, 2), numpy.float32), reduce="sum")
