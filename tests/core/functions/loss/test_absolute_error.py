import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "name": ["absolute_error", "mean_absolute_error"],
    "shape": [(3, 4), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestAbsoluteError(testing.FunctionTestCase):
    def generate_inputs(self):
        x0 = numpy.asarray(numpy.random.uniform(-1, 1, self.shape)).astype(self.dtype)
        # Keep |x0 - x1| >= 0.2, away from the kink of |.|.
        offset = numpy.random.choice([-1, 1], self.shape) * numpy.random.uniform(0.2, 1, self.shape)
        return x0, numpy.asarray(x0 + offset).astype(self.dtype)

    def forward(self, inputs, device):
        return getattr(F, self.name)(*inputs),

    def forward_expected(self, inputs):
        x0, x1 = (x.astype(numpy.float64) for x in inputs)
        y = numpy.abs(x0 - x1)
        if self.name == "mean_absolute_error":
            y = numpy.mean(y)
        return numpy.asarray(y).astype(self.dtype),


def test_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"absolute_error: shapes must match \(x0.shape=\(2, 3\), x1.shape=\(3, 2\)\)"):
        F.absolute_error(numpy.zeros((2, 3), numpy.float32), numpy.zeros((3, 2), numpy.float32))


def test_dtype_mismatch_rejected():
    with pytest.raises(TypeError, match="mean_absolute_error: dtypes must match"):
        F.mean_absolute_error(numpy.zeros(3, numpy.float64), numpy.zeros(3, numpy.float32))
