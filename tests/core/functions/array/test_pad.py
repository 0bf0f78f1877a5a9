import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "mode": ["constant", "edge", "reflect", "symmetric", "wrap"],
    "pad_width": [1, (1, 2), ((0, 0), (2, 1), (3, 0))],
}))
class TestPad(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 2)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.pad(inputs[0], self.pad_width, self.mode),

    def forward_expected(self, inputs):
        return numpy.pad(inputs[0], self.pad_width, mode=self.mode),


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "constant_values": [1.5, ((0.5, -1), (2, 3))],
}))
class TestPadConstantValues(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.pad(inputs[0], ((1, 1), (2, 0)), "constant", constant_values=self.constant_values),

    def forward_expected(self, inputs):
        return numpy.pad(inputs[0], ((1, 1), (2, 0)), mode="constant",
                         constant_values=self.constant_values),


def test_float32_fill_value_does_not_upcast():
    y = F.pad(numpy.ones(2, numpy.float32), 1, "constant", constant_values=numpy.float64(2))
    assert y.dtype == numpy.float32


def test_bad_arguments_rejected():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match="pad: mode='mean' is not supported"):
        F.pad(x, 1, "mean")
    with pytest.raises(TypeError, match="pad: unexpected keyword .* constant_values for mode='edge'"):
        F.pad(x, 1, "edge", constant_values=0)
    with pytest.raises(ValueError, match=r"pad: pad_width=\(1, 2, 3\) does not fit x with 2 dimensions"):
        F.pad(x, (1, 2, 3), "constant")
    with pytest.raises(ValueError, match="pad: pad_width=-1 must not be negative"):
        F.pad(x, -1, "constant")
    with pytest.raises(TypeError, match="pad: pad_width must hold integers"):
        F.pad(x, 1.5, "constant")
    with pytest.raises(ValueError, match=r"pad: .* \(x.shape=\(0, 3\), pad_width=.*mode='wrap'\)"):
        F.pad(numpy.ones((0, 3)), 1, "wrap")


@pytest.mark.gpu
@testing.parameterize(*testing.product({
    "dtype": [numpy.float32], "mode": ["constant", "reflect", "wrap"], "pad_width": [(1, 2)],
    "device": ["@cupy:0"],
}))
class TestPadGPU(TestPad):
    pass
