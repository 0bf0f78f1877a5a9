import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [((3, 2), 0, 2), ((3, 2), 2, 3), ((3, 2), -1, 2), ((), 0, 3)],
}))
class TestStack(testing.FunctionTestCase):
    def generate_inputs(self):
        shape, _, n = self.case
        return tuple(numpy.asarray(numpy.random.uniform(-1, 1, shape)).astype(self.dtype)
                     for _ in range(n))

    def forward(self, inputs, device):
        return F.stack(inputs, self.case[1]),

    def forward_expected(self, inputs):
        return numpy.stack(inputs, self.case[1]),


def test_bad_inputs_rejected():
    with pytest.raises(ValueError, match=r"stack: xs\[1\].shape=\(3,\) does not match xs\[0\].shape=\(2,\)"):
        F.stack([numpy.ones(2), numpy.ones(3)])
    with pytest.raises(ValueError, match="stack: axis 2 is out of bounds for an array of dimension 2"):
        F.stack([numpy.ones(2), numpy.ones(2)], axis=2)
    with pytest.raises(ValueError, match="stack: needs at least one array"):
        F.stack([])
