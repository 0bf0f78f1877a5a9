import numpy

from kusari import testing
from kusari.chem.functions.activation.megnet_softplus import megnet_softplus


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestMegnetSoftplus(testing.FunctionTestCase):
    def generate_inputs(self):
        # away from 0, where |x| and relu have their kinks
        x = numpy.random.uniform(0.2, 3, self.shape) * numpy.random.choice([-1, 1], self.shape)
        return numpy.asarray(x).astype(self.dtype),

    def forward(self, inputs, device):
        return megnet_softplus(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(numpy.log(0.5 * numpy.exp(x) + 0.5)).astype(self.dtype),


def test_large_inputs_do_not_overflow():
    with numpy.errstate(over="raise"):
        y = megnet_softplus(numpy.array([-200.0, 0.0, 200.0], numpy.float32)).array
    numpy.testing.assert_allclose(y, [numpy.log(0.5), 0.0, 200.0 + numpy.log(0.5)], rtol=1e-6)
