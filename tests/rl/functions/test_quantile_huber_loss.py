import numpy
import pytest

from kusari import testing
from kusari.rl import functions as RF


@testing.parameterize(*testing.product({
    "shape": [(2, 3, 4), (1, 5, 1), (3, 1, 2)],   # (B, N, N')
    "taus_per_example": [True, False],
    "delta": [1.0, 0.5],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestQuantileHuberLoss(testing.FunctionTestCase):
    def setup(self):
        b, n, _ = self.shape
        self.taus = numpy.random.uniform(0, 1, (b, n) if self.taus_per_example else (n,)).astype(self.dtype)
        if self.dtype == numpy.float32:
            self.check_backward_options = dict(atol=1e-3, rtol=1e-3)
            self.check_double_backward_options = dict(atol=1e-3, rtol=1e-3)

    def generate_inputs(self):
        b, n, n_prime = self.shape
        y = numpy.random.uniform(-2, 2, (b, n))
        t = numpy.random.uniform(-2, 2, (b, n_prime))
        # keep every pair away from the indicator's jump (d = 0) and the Huber kink (|d| = delta),
        # where numerical derivatives are not the analytic ones
        d = numpy.abs(y[:, :, None] - t[:, None, :])
        while (d < 0.05).any() or (numpy.abs(d - self.delta) < 0.05).any():
            t = numpy.random.uniform(-2, 2, (b, n_prime))
            d = numpy.abs(y[:, :, None] - t[:, None, :])
        return y.astype(self.dtype), t.astype(self.dtype)

    def forward(self, inputs, device):
        y, t = inputs
        return RF.quantile_huber_loss(y, t, self.taus, self.delta),

    def forward_expected(self, inputs):
        y, t = (a.astype(numpy.float64)[:, :, None] for a in inputs)
        t = t.transpose(0, 2, 1)
        d = y - t
        huber = numpy.where(numpy.abs(d) <= self.delta, 0.5 * d ** 2, self.delta * (numpy.abs(d) - 0.5 * self.delta))
        taus = numpy.broadcast_to(self.taus, y.shape[:2])[:, :, None]
        return (numpy.abs(taus - (t < y)) * huber).astype(self.dtype),


def test_minimizer_is_the_quantile():
    """Over a grid of y, the summed loss against many samples is least at their tau-quantile."""
    rng = numpy.random.RandomState(0)
    samples = rng.normal(0, 1, (1, 2000))
    grid = numpy.linspace(-2, 2, 401)
    for tau in (0.1, 0.5, 0.9):
        losses = [float(RF.quantile_huber_loss(numpy.array([[g]]), samples, numpy.array([tau]), 0.01).array.sum())
                  for g in grid]
        assert abs(grid[int(numpy.argmin(losses))] - numpy.quantile(samples, tau)) < 0.03


def test_bad_shapes_and_dtypes():
    y = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"quantile_huber_loss: .*y.shape=\(2, 3\), t.shape=\(3, 4\), taus.shape=\(3,\)"):
        RF.quantile_huber_loss(y, numpy.zeros((3, 4), numpy.float32), numpy.zeros(3, numpy.float32))
    with pytest.raises(ValueError, match=r"taus.shape=\(2,\)"):
        RF.quantile_huber_loss(y, numpy.zeros((2, 4), numpy.float32), numpy.zeros(2, numpy.float32))
    with pytest.raises(TypeError, match="quantile_huber_loss: t"):
        RF.quantile_huber_loss(y, numpy.zeros((2, 4), numpy.int32), numpy.zeros(3, numpy.float32))
    with pytest.raises(ValueError, match="delta must be positive, got 0"):
        RF.quantile_huber_loss(y, numpy.zeros((2, 4), numpy.float32), numpy.zeros(3, numpy.float32), 0)
