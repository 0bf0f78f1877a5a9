import numpy

from kusari import testing
from kusari.chem import functions as CF

ROWS = numpy.array([0, 2, 3, 6])


@testing.parameterize(*testing.product({
    "shape": [(7, 3), (7,)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestTakeRows(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.standard_normal(self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return CF.take_rows(inputs[0], device.send(ROWS)),

    def forward_expected(self, inputs):
        return inputs[0][[0, 2, 3, 6]],
