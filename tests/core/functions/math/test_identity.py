import numpy

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "n_inputs": [1, 3],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestIdentity(testing.FunctionTestCase):
    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, (3, i + 1)).astype(self.dtype)
                     for i in range(self.n_inputs))

    def forward(self, inputs, device):
        ys = F.identity(*inputs)
        return ys if isinstance(ys, tuple) else (ys,)

    def forward_expected(self, inputs):
        return inputs


def test_single_input_gives_a_variable_and_several_a_tuple():
    a = kusari.Variable(numpy.ones(2, numpy.float32))
    b = kusari.Variable(numpy.zeros(3, numpy.float32))
    y = F.identity(a)
    assert isinstance(y, kusari.Variable) and y is not a
    ys = F.identity(a, b)
    assert isinstance(ys, tuple) and len(ys) == 2


def test_gradient_of_an_unused_output_is_none():
    a = kusari.Variable(numpy.ones(2, numpy.float32))
    b = kusari.Variable(numpy.ones(3, numpy.float32))
    ya, _ = F.identity(a, b)
    F.sum(ya * 2.0).backward()
    numpy.testing.assert_array_equal(a.grad, [2.0, 2.0])
    assert b.grad is None
