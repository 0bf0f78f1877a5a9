import numpy
import pytest

from kusari import testing
from kusari.chem.functions.loss.mean_squared_error import mean_squared_error


@testing.parameterize(*testing.product({
    "shape": [(4, 3), (5,)],
    "ignore_nan": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestMeanSquaredError(testing.FunctionTestCase):
    def generate_inputs(self):
        x0 = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        x1 = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        if self.ignore_nan:
            x1.flat[[0, 3]] = numpy.nan
        return x0, x1

    def forward(self, inputs, device):
        return mean_squared_error(*inputs, ignore_nan=self.ignore_nan),

    def forward_expected(self, inputs):
        d = (inputs[0] - inputs[1]).astype(numpy.float64)
        # NaN differences count as 0, but the divisor is still every element
        return numpy.asarray(numpy.nansum(d * d) / d.size).astype(self.dtype),


def test_nan_without_ignore_nan_propagates():
    y = mean_squared_error(numpy.array([1, numpy.nan], numpy.float32),
                           numpy.zeros(2, numpy.float32))
    assert numpy.isnan(y.array)


def test_errors():
    with pytest.raises(TypeError, match="mean_squared_error: .*x0.dtype=float32, x1.dtype=float64"):
        mean_squared_error(numpy.zeros(2, numpy.float32), numpy.zeros(2))
    with pytest.raises(ValueError, match=r"mean_squared_error: .*x0.shape=\(2,\), x1.shape=\(3,\)"):
        mean_squared_error(numpy.zeros(2), numpy.zeros(3))
