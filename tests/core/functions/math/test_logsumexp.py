import numpy
import pytest
import scipy.special

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "axis": [None, 0, -1, (0, 2)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestLogSumExp(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, (3, 2, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.logsumexp(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        y = scipy.special.logsumexp(inputs[0].astype(numpy.float64), axis=self.axis)
        return numpy.asarray(y).astype(self.dtype),


def test_logsumexp_large_inputs_do_not_overflow():
    x = numpy.array([1000.0, 1000.0], numpy.float32)
    numpy.testing.assert_allclose(F.logsumexp(x).array, 1000.0 + numpy.log(2.0), rtol=1e-6)


@pytest.mark.filterwarnings("ignore:divide by zero")  # log(0) = -inf is the answer
def test_logsumexp_all_minus_inf():
    x = numpy.full((2, 3), -numpy.inf, numpy.float32)
    assert numpy.all(F.logsumexp(x, axis=1).array == -numpy.inf)


def test_logsumexp_errors():
    with pytest.raises(ValueError, match="logsumexp: axis 3 is out of bounds"):
        F.logsumexp(numpy.ones((2, 2), numpy.float32), axis=3)
    with pytest.raises(ValueError, match="logsumexp: cannot reduce over an empty axis"):
        F.logsumexp(numpy.ones((0, 2), numpy.float32), axis=0)
    with pytest.raises(TypeError, match="logsumexp: x must be a floating-point array"):
        F.logsumexp(numpy.arange(3))


@pytest.mark.parametrize("func", [F.logsumexp, F.sum, F.max])
def test_axis_must_be_an_int_or_a_tuple_of_ints(func):
    x = numpy.ones((3, 2, 4), numpy.float32)
    for axis in ([0], (1, "x"), (True,)):   # as NumPy and Chainer
        with pytest.raises(TypeError, match="axis must be None, an int or a tuple of ints"):
            func(x, axis=axis)
    with pytest.raises(ValueError, match="axis 3 is out of bounds"):
        func(x, axis=3)
    with pytest.raises(ValueError, match="duplicate value in axis"):
        func(x, axis=(1, -2))
