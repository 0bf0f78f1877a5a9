import numpy

from kusari import testing
from kusari.chem import functions as CF

ROWS = numpy.array([0, 2, 3, 6])


@testing.parameterize(*testing.product({
    "shape": [(4, 3), (4,)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestPutRows(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.standard_normal(self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return CF.put_rows(inputs[0], device.send(ROWS), 7),

    def forward_expected(self, inputs):
        y = inputs[0]
        expected = numpy.zeros((7,) + y.shape[1:], y.dtype)
        for i, row in enumerate([0, 2, 3, 6]):
            expected[row] = y[i]
        return expected,
