import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [((2, 3), 2), ((2, 3), (2, 1)), ((3,), (2, 1, 2)), ((2, 1, 3), (3,)), ((), (2, 2)),
             ((2, 3), (0, 1))],
}))
class TestTile(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(-1, 1, self.case[0])).astype(self.dtype),

    def forward(self, inputs, device):
        return F.tile(inputs[0], self.case[1]),

    def forward_expected(self, inputs):
        return numpy.tile(inputs[0], self.case[1]),


def test_negative_reps_rejected():
    with pytest.raises(ValueError, match=r"tile: reps=\(2, -1\) must be a non-negative int"):
        F.tile(numpy.ones(3), (2, -1))
