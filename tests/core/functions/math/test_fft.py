import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "method": ["fft", "ifft"],
    "shape": [(4,), (2, 5)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestFFT(testing.FunctionTestCase):
    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),
                numpy.random.uniform(-1, 1, self.shape).astype(self.dtype))

    def forward(self, inputs, device):
        return getattr(F, self.method)(inputs)

    def forward_expected(self, inputs):
        real, imag = (x.astype(numpy.float64) for x in inputs)
        y = getattr(numpy.fft, self.method)(real + 1j * imag)
        return y.real.astype(self.dtype), y.imag.astype(self.dtype)


def test_fft_gradient_with_one_output_unused():
    real = kusari.Variable(numpy.random.rand(4))
    imag = kusari.Variable(numpy.random.rand(4))
    yr, _ = F.fft((real, imag))
    F.sum(yr).backward()
    # d sum(Re F x) / d xr = Re(sum of DFT rows) = (4, 0, 0, 0); / d xi = Im-part terms = 0
    numpy.testing.assert_allclose(real.grad, [4.0, 0.0, 0.0, 0.0], atol=1e-12)
    numpy.testing.assert_allclose(imag.grad, numpy.zeros(4), atol=1e-12)


def test_fft_ifft_roundtrip():
    real, imag = numpy.random.rand(2, 6).astype(numpy.float32)
    yr, yi = F.ifft(F.fft((real, imag)))
    numpy.testing.assert_allclose(yr.array, real, atol=1e-6)
    numpy.testing.assert_allclose(yi.array, imag, atol=1e-6)


def test_fft_errors():
    x = numpy.ones(4, numpy.float32)
    with pytest.raises(ValueError, match=r"fft: shapes must match \(real.shape=\(4,\), imag.shape=\(3,\)\)"):
        F.fft((x, numpy.ones(3, numpy.float32)))
    with pytest.raises(TypeError, match="ifft: dtypes must match"):
        F.ifft((x, x.astype(numpy.float64)))
    with pytest.raises(ValueError, match="fft: real and imag must have at least one dimension"):
        F.fft((numpy.ones((), numpy.float32), numpy.ones((), numpy.float32)))
    with pytest.raises(TypeError, match="fft: real must be a floating-point array"):
        F.fft((numpy.ones(4, numpy.int32), numpy.ones(4, numpy.int32)))
