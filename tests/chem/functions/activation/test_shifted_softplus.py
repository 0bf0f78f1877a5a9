import numpy

from kusari import testing
from kusari.chem.functions.activation.shifted_softplus import shifted_softplus


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "beta": [1.0, 2.0],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestShiftedSoftplus(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(-3, 3, self.shape)
        if self.shape:
            x[0, 0] = 25.0   # above the threshold: the identity branch
        return numpy.asarray(x).astype(self.dtype),

    def forward(self, inputs, device):
        return shifted_softplus(inputs[0], beta=self.beta),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        y = numpy.where(x > 20, x, numpy.log1p(numpy.exp(self.beta * x)) / self.beta)
        return numpy.asarray(y + numpy.log(0.5)).astype(self.dtype),


def test_zero_maps_to_zero():
    assert float(shifted_softplus(numpy.zeros(1, numpy.float32)).array[0]) == 0.0


def test_shift():
    y = shifted_softplus(numpy.zeros(1, numpy.float64), shift=2.0).array
    numpy.testing.assert_allclose(y, [numpy.log(2.0) + numpy.log(2.0)])
