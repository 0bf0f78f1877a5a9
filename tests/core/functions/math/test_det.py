import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "fn": ["det", "batch_det"],
    "n": [1, 3],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestDet(testing.FunctionTestCase):
    def generate_inputs(self):
        shape = (self.n, self.n) if self.fn == "det" else (2, self.n, self.n)
        return (numpy.eye(self.n) + numpy.random.uniform(-0.3, 0.3, shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.fn)(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.asarray(numpy.linalg.det(inputs[0].astype(numpy.float64))).astype(self.dtype),


def test_det_shapes():
    assert F.det(numpy.eye(3, dtype=numpy.float32)).shape == ()
    assert F.batch_det(numpy.ones((4, 2, 2), numpy.float32)).shape == (4,)


def test_det_shape_checks():
    with pytest.raises(ValueError, match="det: a must be 2-dimensional, got 3"):
        F.det(numpy.ones((2, 3, 3), numpy.float32))
    with pytest.raises(ValueError, match=r"batch_det: a must hold square matrices, got shape \(2, 3, 4\)"):
        F.batch_det(numpy.ones((2, 3, 4), numpy.float32))


def test_float16_is_computed_in_float32_and_returned_in_float16():
    # NumPy's linalg has no float16; Chainer's det and inv accept it
    a = numpy.array([[2.0, 1.0], [1.0, 3.0]], numpy.float16)
    y = F.det(a)
    assert y.dtype == numpy.float16 and float(y.array) == 5.0
    inv = F.inv(a)
    assert inv.dtype == numpy.float16
    numpy.testing.assert_allclose(inv.array, numpy.linalg.inv(a.astype(numpy.float32)), rtol=1e-3)
