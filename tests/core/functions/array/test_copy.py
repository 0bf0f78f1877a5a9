import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "dst": [-1, "@numpy"],
}))
class TestCopy(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.copy(inputs[0], self.dst),

    def forward_expected(self, inputs):
        return inputs[0].copy(),


def test_copy_on_the_same_device_does_not_alias():
    x = numpy.zeros(3, numpy.float32)
    y = F.copy(x, -1)
    y.array[0] = 1
    assert x[0] == 0


def test_bad_device_rejected():
    with pytest.raises(ValueError, match="copy: dst='tpu' is not a device"):
        F.copy(numpy.zeros(3), "tpu")


@pytest.mark.gpu
def test_copy_to_gpu_and_back():
    import cupy
    x = kusari.Variable(numpy.arange(3, dtype=numpy.float32))
    y = F.copy(x, 0)
    assert isinstance(y.array, cupy.ndarray)
    y.grad = cupy.ones(3, numpy.float32)
    y.backward()
    assert isinstance(x.grad, numpy.ndarray)
    numpy.testing.assert_array_equal(x.grad, numpy.ones(3))
