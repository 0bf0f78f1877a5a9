import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "shapes": [[(3,), (3,)], [(2, 3), (1, 3), (3,)], [(2, 2, 3), (1, 2, 3)], [(), ()]],
}))
class TestVstack(testing.FunctionTestCase):
    def generate_inputs(self):
        return tuple(numpy.asarray(numpy.random.uniform(-1, 1, s)).astype(self.dtype)
                     for s in self.shapes)

    def forward(self, inputs, device):
        return F.vstack(inputs),

    def forward_expected(self, inputs):
        return numpy.vstack(inputs),


def test_mismatch_rejected():
    with pytest.raises(ValueError, match=r"vstack: xs\[1\].shape=\(1, 2\) does not match "
                                         r"xs\[0\].shape=\(1, 3\) outside axis 0"):
        F.vstack([numpy.ones(3), numpy.ones(2)])
