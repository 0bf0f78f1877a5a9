import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "reduce": ["sum_along_second_axis", "no"],
    "shape": [(4, 5), (2, 3, 4)],
    "delta": [0.5, 1.0],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestHuberLoss(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape).astype(self.dtype)
        # |x - t| stays at least 0.05 away from delta, where the second derivative jumps.
        a = numpy.random.uniform(0, 2, self.shape)
        a = numpy.where(numpy.abs(a - self.delta) < 0.05, a + 0.1, a)
        t = (x - numpy.random.choice([-1, 1], self.shape) * a).astype(self.dtype)
        return x, t

    def forward(self, inputs, device):
        return F.huber_loss(*inputs, delta=self.delta, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t = (v.astype(numpy.float64) for v in inputs)
        a = numpy.abs(x - t)
        d = self.delta
        loss = numpy.where(a <= d, 0.5 * a ** 2, d * (a - 0.5 * d))
        if self.reduce == "sum_along_second_axis":
            loss = loss.sum(axis=1)
        return loss.astype(self.dtype),


def test_output_shape_sums_axis_1_only():
    y = F.huber_loss(numpy.zeros((2, 3, 4), numpy.float32), numpy.ones((2, 3, 4), numpy.float32), 1.0)
    assert y.shape == (2, 4)
    numpy.testing.assert_allclose(y.array, numpy.full((2, 4), 1.5))


def test_bad_delta_rejected():
    with pytest.raises(ValueError, match="huber_loss: delta must be positive, got 0.0"):
        F.huber_loss(numpy.zeros((2, 2), numpy.float32), numpy.zeros((2, 2), numpy.float32), 0)


def test_sum_along_second_axis_needs_2d():
    with pytest.raises(ValueError, match=r"huber_loss: reduce='sum_along_second_axis' needs inputs of at least 2 dimensions, got x.shape=\(3,\)"):
        F.huber_loss(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float32), 1.0)


def test_bad_reduce_rejected():
    with pytest.raises(ValueError, match="huber_loss: reduce must be 'sum_along_second_axis' or 'no', got 'mean'"):
        F.huber_loss(numpy.zeros((2, 2), numpy.float32), numpy.zeros((2, 2), numpy.float32), 1.0, reduce="mean")
