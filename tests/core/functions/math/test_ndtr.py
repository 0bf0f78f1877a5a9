import math

import numpy
import pytest
import scipy.special

import kusari
import kusari.functions as F
from kusari import testing


def _ndtr(x):
    return 0.5 * numpy.vectorize(math.erfc)(-x / math.sqrt(2.0))


REFERENCES = {
    "ndtr": _ndtr,
    "log_ndtr": lambda x: numpy.log(_ndtr(x)),
    "ndtri": scipy.special.ndtri,
}
# ndtri's slope blows up at 0 and 1.
RANGES = {"ndtr": (-3, 3), "log_ndtr": (-3, 3), "ndtri": (0.1, 0.9)}


@testing.parameterize(*testing.product({
    "name": sorted(REFERENCES),
    "shape": [(3, 2), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestNdtr(testing.FunctionTestCase):
    def generate_inputs(self):
        lo, hi = RANGES[self.name]
        return numpy.asarray(numpy.random.uniform(lo, hi, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0]),

    def forward_expected(self, inputs):
        y = REFERENCES[self.name](inputs[0].astype(numpy.float64))
        return numpy.asarray(y).astype(self.dtype),


def test_ndtri_inverts_ndtr():
    p = numpy.linspace(0.05, 0.95, 7)
    numpy.testing.assert_allclose(F.ndtr(F.ndtri(p)).array, p, rtol=1e-12)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_log_ndtr_tails(dtype):
    x = kusari.Variable(numpy.array([-40.0, -20.0, 20.0], dtype))
    y = F.log_ndtr(x)
    F.sum(y).backward()
    t = numpy.array([-40.0, -20.0])
    # Left tail: log ndtr(t) = -t^2/2 - log(-t) - log(2 pi)/2 + log(1 - 1/t^2 + 3/t^4 - ...);
    # d/dt log ndtr(t) = pdf/cdf ~ -t (1 + 1/t^2 - 2/t^4); right tail: ~ 0.
    expected_y = (-t * t / 2 - numpy.log(-t) - 0.5 * math.log(2 * math.pi)
                  + numpy.log1p(-1 / t ** 2 + 3 / t ** 4))
    expected_g = -t * (1 + 1 / t ** 2 - 2 / t ** 4)
    numpy.testing.assert_allclose(y.array[:2], expected_y, rtol=1e-5)
    numpy.testing.assert_allclose(x.grad[:2], expected_g, rtol=1e-4)
    assert abs(float(y.array[2])) < 1e-30 and abs(float(x.grad[2])) < 1e-30


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_integer_input_rejected(name):
    with pytest.raises(TypeError, match=f"{name}: x must be a floating-point array"):
        getattr(F, name)(numpy.arange(3))
