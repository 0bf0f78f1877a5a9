import numpy
import pytest

from kusari import testing
from kusari.chem.functions.loss.mean_absolute_error import mean_absolute_error


@testing.parameterize(*testing.product({
    "shape": [(4, 3), (5,)],
    "ignore_nan": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestMeanAbsoluteError(testing.FunctionTestCase):
    def generate_inputs(self):
        x0 = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        # differences at least 0.2 away from the kink of |d| at 0
        x1 = (x0 + numpy.random.uniform(0.2, 1, self.shape)
              * numpy.random.choice([-1, 1], self.shape)).astype(self.dtype)
        if self.ignore_nan:
            x0.flat[[1, 2]] = numpy.nan
        return x0, x1

    def forward(self, inputs, device):
        return mean_absolute_error(*inputs, ignore_nan=self.ignore_nan),

    def forward_expected(self, inputs):
        d = (inputs[0] - inputs[1]).astype(numpy.float64)
        return numpy.asarray(numpy.nansum(numpy.abs(d)) / d.size).astype(self.dtype),


def test_nan_without_ignore_nan_propagates():
    y = mean_absolute_error(numpy.array([1, numpy.nan], numpy.float32),
                            numpy.zeros(2, numpy.float32))
    assert numpy.isnan(y.array)


def test_errors():
    with pytest.raises(TypeError, match="mean_absolute_error: .*x0.dtype=int64"):
        mean_absolute_error(numpy.zeros(2, numpy.int64), numpy.zeros(2, numpy.int64))
