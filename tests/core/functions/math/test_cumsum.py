import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape_axis": [((5,), 0), ((3, 4), 1), ((3, 4), -2), ((2, 3, 2), None)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestCumsum(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape_axis[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.cumsum(inputs[0], axis=self.shape_axis[1]),

    def forward_expected(self, inputs):
        return numpy.cumsum(inputs[0].astype(numpy.float64), axis=self.shape_axis[1]).astype(self.dtype),


def test_cumsum_axis_none_flattens():
    assert F.cumsum(numpy.ones((2, 3), numpy.float32)).shape == (6,)


def test_cumsum_bad_axis():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(TypeError, match=r"cumsum: axis must be an int or None, got \(0, 1\)"):
        F.cumsum(x, axis=(0, 1))
    with pytest.raises(ValueError, match="cumsum: axis 2 is out of bounds"):
        F.cumsum(x, axis=2)
    with pytest.raises(ValueError, match="cumsum: x is 0-dimensional"):
        F.cumsum(numpy.ones((), numpy.float32), axis=0)


def test_cumsum_integer_rejected():
    with pytest.raises(TypeError, match="cumsum: x must be a floating-point array"):
        F.cumsum(numpy.arange(3), axis=0)
