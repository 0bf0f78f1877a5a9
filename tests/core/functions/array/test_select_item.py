import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "shape": [(4, 3), (1, 5)],
}))
class TestSelectItem(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        t = numpy.random.randint(0, self.shape[1], self.shape[0]).astype(numpy.int32)
        return x, t

    def forward(self, inputs, device):
        return F.select_item(*inputs),

    def forward_expected(self, inputs):
        x, t = inputs
        return numpy.array([row[label] for row, label in zip(x, t)], self.dtype),


def test_bad_inputs_rejected():
    x = numpy.ones((3, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"select_item: x must be 2-dimensional .* got shape \(3,\)"):
        F.select_item(numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.int32))
    with pytest.raises(TypeError, match=r"select_item: t must be a 1-D integer array, got shape=\(3,\), "
                                        "dtype=float32"):
        F.select_item(x, numpy.zeros(3, numpy.float32))
    with pytest.raises(ValueError, match=r"select_item: len\(t\)=2 does not match x.shape\[0\]=3"):
        F.select_item(x, numpy.zeros(2, numpy.int32))
    with pytest.raises(IndexError, match=r"select_item: t holds a label outside \[0, 4\)"):
        F.select_item(x, numpy.array([0, 4, 1], numpy.int32))
