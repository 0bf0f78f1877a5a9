import numpy

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "shape": [(3, 2, 4), (5,), ()],
}))
class TestFlatten(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(-1, 1, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.flatten(inputs[0]),

    def forward_expected(self, inputs):
        return inputs[0].flatten(),
