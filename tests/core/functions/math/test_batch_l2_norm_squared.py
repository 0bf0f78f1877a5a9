import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(4, 3), (2, 3, 2), (3, 1)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestBatchL2NormSquared(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.batch_l2_norm_squared(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64).reshape(len(inputs[0]), -1)
        return (numpy.linalg.norm(x, axis=1) ** 2).astype(self.dtype),


def test_batch_l2_norm_squared_needs_two_dims():
    msg = r"batch_l2_norm_squared: x must be at least 2-dimensional .* shape \(3,\)"
    with pytest.raises(ValueError, match=msg):
        F.batch_l2_norm_squared(numpy.ones(3, numpy.float32))
    with pytest.raises(TypeError, match="batch_l2_norm_squared: x must be a floating-point array"):
        F.batch_l2_norm_squared(numpy.ones((2, 2), numpy.int32))
