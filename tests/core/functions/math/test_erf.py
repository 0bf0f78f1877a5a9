import math
import sys

import numpy
import pytest
import scipy.special

import kusari.functions as F
from kusari import testing


def _erfcx(x):
    return numpy.exp(x * x) * numpy.vectorize(math.erfc)(x)


REFERENCES = {
    "erf": numpy.vectorize(math.erf),
    "erfc": numpy.vectorize(math.erfc),
    "erfcx": _erfcx,
    "erfinv": scipy.special.erfinv,
    "erfcinv": scipy.special.erfcinv,
}
# The inverses' slopes blow up at the ends of their domains (-1, 1) and (0, 2).
RANGES = {"erf": (-2, 2), "erfc": (-2, 2), "erfcx": (-2, 2), "erfinv": (-0.8, 0.8),
          "erfcinv": (0.2, 1.8)}


@testing.parameterize(*testing.product({
    "name": sorted(REFERENCES),
    "shape": [(3, 2), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestErf(testing.FunctionTestCase):
    def generate_inputs(self):
        lo, hi = RANGES[self.name]
        return numpy.asarray(numpy.random.uniform(lo, hi, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(F, self.name)(inputs[0]),

    def forward_expected(self, inputs):
        y = REFERENCES[self.name](inputs[0].astype(numpy.float64))
        return numpy.asarray(y).astype(self.dtype),


def test_inverses_round_trip():
    x = numpy.linspace(-0.9, 0.9, 7)
    numpy.testing.assert_allclose(F.erf(F.erfinv(x)).array, x, rtol=1e-12)
    numpy.testing.assert_allclose(F.erfc(F.erfcinv(x + 1.0)).array, x + 1.0, rtol=1e-12)


def test_erfcx_large_argument_does_not_overflow():
    x = numpy.array([30.0, 1e3], numpy.float64)
    # erfcx(x) ~ 1 / (x sqrt(pi)) (1 - 1 / (2 x^2)) for large x.
    expected = 1.0 / (x * math.sqrt(math.pi)) * (1.0 - 0.5 / (x * x))
    numpy.testing.assert_allclose(F.erfcx(x).array, expected, rtol=1e-5)


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_integer_input_rejected(name):
    with pytest.raises(TypeError, match=f"{name}: x must be a floating-point array"):
        getattr(F, name)(numpy.arange(3))


def test_missing_scipy_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.special", None)
    with pytest.raises(ImportError, match=r"kusari.functions.erf needs the package 'scipy'; "
                                          r"install it with: pip install 'kusari\[special\]'"):
        F.erf(numpy.zeros(2, numpy.float32))
