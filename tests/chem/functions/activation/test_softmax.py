import numpy
import pytest

from kusari import testing
from kusari.chem.functions.activation.softmax import softmax


def _reference(x, mask, axis):
    x = x.astype(numpy.float64)
    e = numpy.exp(x - x.max(axis=axis, keepdims=True)) * mask
    return e / e.sum(axis=axis, keepdims=True)


@testing.parameterize(*testing.product({
    "axis": [1, 2],
    "masked": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestMaskedSoftmax(testing.FunctionTestCase):
    def setup(self):
        self.mask = numpy.ones((2, 3, 4), self.dtype)
        if self.masked:
            self.mask[0, 0, 2:] = 0   # every slice keeps at least one entry
            self.mask[1, 1:, 3] = 0

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        mask = device.send(self.mask) if self.masked else None
        return softmax(inputs[0], axis=self.axis, mask=mask),

    def forward_expected(self, inputs):
        return _reference(inputs[0], self.mask, self.axis).astype(self.dtype),


def test_integer_mask_keeps_float32():
    x = numpy.zeros((1, 4), numpy.float32)
    y = softmax(x, mask=numpy.array([[1, 1, 0, 0]]))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, [[0.5, 0.5, 0, 0]])


def test_shape_mismatch():
    with pytest.raises(ValueError, match=r"softmax: .*x.shape=\(1, 4\), mask.shape=\(4,\)"):
        softmax(numpy.zeros((1, 4), numpy.float32), mask=numpy.ones(4, numpy.float32))
