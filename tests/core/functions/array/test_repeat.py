import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [(2, None), (3, 0), ((1, 0, 2), 1), ((2,), -1), (0, 1)],
}))
class TestRepeat(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.repeat(inputs[0], *self.case),

    def forward_expected(self, inputs):
        return numpy.repeat(inputs[0], *self.case),


def test_bad_repeats_rejected():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match="repeat: repeats=-1 must be a non-negative int"):
        F.repeat(x, -1)
    with pytest.raises(ValueError, match=r"repeat: 2 repeats given for x.shape\[1\]=3 elements"):
        F.repeat(x, (1, 2), axis=1)
    with pytest.raises(ValueError, match="repeat: axis 2 is out of bounds"):
        F.repeat(x, 2, axis=2)
