import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "shapes": [[(2,), (3,)], [(2, 3), (2, 1)], [(2, 1, 3), (2, 2, 3)], [(), ()]],
}))
class TestHstack(testing.FunctionTestCase):
    def generate_inputs(self):
        return tuple(numpy.asarray(numpy.random.uniform(-1, 1, s)).astype(self.dtype)
                     for s in self.shapes)

    def forward(self, inputs, device):
        return F.hstack(inputs),

    def forward_expected(self, inputs):
        return numpy.hstack(inputs),


def test_mismatch_rejected():
    with pytest.raises(ValueError, match=r"hstack: xs\[1\].shape=\(3, 1\) does not match "
                                         r"xs\[0\].shape=\(2, 3\) outside axis 1"):
        F.hstack([numpy.ones((2, 3)), numpy.ones((3, 1))])
    with pytest.raises(ValueError, match="hstack: needs at least one array"):
        F.hstack([])
