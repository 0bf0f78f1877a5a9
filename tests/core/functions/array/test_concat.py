import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [([(2, 3, 4), (2, 1, 4), (2, 2, 4)], 1), ([(2, 3), (4, 3)], 0), ([(2, 3), (2, 2)], -1),
             ([(5,)], 0)],
}))
class TestConcat(testing.FunctionTestCase):
    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.case[0])

    def forward(self, inputs, device):
        return F.concat(inputs, axis=self.case[1]),

    def forward_expected(self, inputs):
        return numpy.concatenate(inputs, axis=self.case[1]),


def test_default_axis_is_one():
    a, b = numpy.ones((2, 1), numpy.float32), numpy.zeros((2, 2), numpy.float32)
    assert F.concat((a, b)).shape == (2, 3)


def test_mismatched_shapes_rejected():
    with pytest.raises(ValueError, match=r"concat: xs\[1\].shape=\(3, 2\) does not match "
                                         r"xs\[0\].shape=\(2, 2\) outside axis 1"):
        F.concat([numpy.ones((2, 2)), numpy.ones((3, 2))], axis=1)


def test_mismatched_ndim_rejected():
    with pytest.raises(ValueError, match=r"concat: xs\[1\].shape=\(2,\) has 1 dimensions"):
        F.concat([numpy.ones((2, 2)), numpy.ones(2)], axis=0)


def test_mismatched_dtypes_rejected():
    with pytest.raises(TypeError, match="concat: xs.1..dtype=float32 differs from xs.0..dtype=float64"):
        F.concat([numpy.ones((2, 2)), numpy.ones((2, 2), numpy.float32)])


def test_empty_and_scalar_inputs_rejected():
    with pytest.raises(ValueError, match="concat: needs at least one array"):
        F.concat([])
    with pytest.raises(ValueError, match="concat: cannot join 0-dimensional arrays"):
        F.concat([numpy.ones(())], axis=0)
    with pytest.raises(ValueError, match="concat: axis 2 is out of bounds"):
        F.concat([numpy.ones((2, 2))], axis=2)
