import numpy
import pytest
import scipy.special

import kusari.functions as F
from kusari import gradient_check, testing


def tree_lstm_reference(*inputs):
    cs = [c.astype(numpy.float64) for c in inputs[:-1]]
    x = inputs[-1].astype(numpy.float64)
    n = len(cs)
    r = x.reshape((x.shape[0], n + 3, x.shape[1] // (n + 3)) + x.shape[2:])
    a, i, o = r[:, 0], r[:, 1], r[:, 2]
    s = scipy.special.expit
    c = numpy.tanh(a) * s(i) + sum(s(r[:, 3 + k]) * cs[k] for k in range(n))
    return c, s(o) * numpy.tanh(c)


@testing.parameterize(*testing.product({
    "n_children_c_shape": [(1, (3, 2)), (2, (3, 2)), (3, (2, 2, 2))],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestTreeLSTM(testing.FunctionTestCase):
    def generate_inputs(self):
        n, c_shape = self.n_children_c_shape
        x_shape = (c_shape[0], (n + 3) * c_shape[1]) + c_shape[2:]
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype)
                     for s in [c_shape] * n + [x_shape])

    def forward(self, inputs, device):
        return F.tree_lstm(*inputs)

    def forward_expected(self, inputs):
        return tuple(y.astype(self.dtype) for y in tree_lstm_reference(*inputs))


@pytest.mark.parametrize("output", [0, 1])
def test_gradient_through_one_output(output):
    rng = numpy.random.default_rng(0)
    inputs = tuple(rng.uniform(-1, 1, s) for s in ((2, 3), (2, 3), (2, 15)))

    def f(*xs):
        return F.tree_lstm(*xs)[output],

    gy = rng.uniform(-1, 1, (2, 3))
    gradient_check.check_backward(f, inputs, (gy,), eps=1e-4)
    gradient_check.check_double_backward(f, inputs, (gy,),
                                         tuple(rng.uniform(-1, 1, x.shape) for x in inputs),
                                         eps=1e-4)


def test_x_channels_mismatch_rejected():
    z = numpy.zeros
    with pytest.raises(ValueError, match=r"tree_lstm: x.shape\[1:\]=\(8,\) must be \(10,\) "
                                         r"\(5 gates of c1.shape\[1:\]=\(2,\)\)"):
        F.tree_lstm(z((3, 2), "f"), z((3, 2), "f"), z((3, 8), "f"))


def test_too_few_inputs_rejected():
    with pytest.raises(ValueError, match="tree_lstm: needs at least one cell state and x"):
        F.tree_lstm(numpy.zeros((3, 8), "f"))
