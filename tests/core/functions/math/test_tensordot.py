import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "case": [((3, 4, 2), (4, 2, 5), 2), ((3, 4), (4, 5), 1), ((2, 3), (4,), 0),
             ((3, 4, 2), (2, 5, 3), ([0, 2], [2, 0])), ((2, 3, 4), (4, 2), ((2, 0), (0, 1))),
             ((3,), (3,), 1)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestTensorDot(testing.FunctionTestCase):
    def generate_inputs(self):
        a_shape, b_shape, _ = self.case
        return (numpy.random.uniform(-1, 1, a_shape).astype(self.dtype),
                numpy.random.uniform(-1, 1, b_shape).astype(self.dtype))

    def forward(self, inputs, device):
        return F.tensordot(*inputs, axes=self.case[2]),

    def forward_expected(self, inputs):
        a, b = (x.astype(numpy.float64) for x in inputs)
        return numpy.asarray(numpy.tensordot(a, b, axes=self.case[2])).astype(self.dtype),


def test_tensordot_errors():
    a = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"tensordot: a.shape\[1\]=3 does not match b.shape\[0\]=4"):
        F.tensordot(a, numpy.ones((4, 2), numpy.float32), axes=1)
    with pytest.raises(ValueError, match=r"tensordot: axes=3 must lie in \[0, 2\]"):
        F.tensordot(a, a, axes=3)
    with pytest.raises(ValueError, match="tensordot: a and b need as many contracted axes"):
        F.tensordot(a, a, axes=([0, 1], [0]))
    with pytest.raises(ValueError, match="tensordot: axis 2 of b is out of bounds"):
        F.tensordot(a, a, axes=([0], [2]))
    with pytest.raises(ValueError, match="tensordot: repeated axis in a's axes"):
        F.tensordot(a, numpy.ones((2, 2), numpy.float32), axes=([0, 0], [0, 1]))
