import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [("flip", 0), ("flip", 2), ("flip", -2), ("fliplr", None), ("flipud", None)],
}))
class TestFlip(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),

    def _apply(self, module, x):
        name, axis = self.case
        return getattr(module, name)(x) if axis is None else getattr(module, name)(x, axis)

    def forward(self, inputs, device):
        return self._apply(F, inputs[0]),

    def forward_expected(self, inputs):
        return self._apply(numpy, inputs[0]).copy(),


def test_bad_axis_rejected():
    with pytest.raises(ValueError, match="fliplr: axis 1 is out of bounds for an array of dimension 1"):
        F.fliplr(numpy.ones(3))
    with pytest.raises(ValueError, match="flipud: cannot flip a 0-dimensional array"):
        F.flipud(numpy.ones(()))
    with pytest.raises(TypeError, match=r"flip: axis must be an int, got \(0, 1\)"):
        F.flip(numpy.ones((2, 2)), (0, 1))
