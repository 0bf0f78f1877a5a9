import numpy
import pytest
import scipy.special

import kusari.functions as F
from kusari import gradient_check, testing


def slstm_reference(c1, c2, x1, x2):
    c1, c2, x1, x2 = (a.astype(numpy.float64) for a in (c1, c2, x1, x2))

    def gates(x):
        r = x.reshape((x.shape[0], x.shape[1] // 4, 4) + x.shape[2:])
        return [r[:, :, k] for k in range(4)]

    a1, i1, f1, o1 = gates(x1)
    a2, i2, f2, o2 = gates(x2)
    s = scipy.special.expit
    c = numpy.tanh(a1) * s(i1) + numpy.tanh(a2) * s(i2) + s(f1) * c1 + s(f2) * c2
    return c, s(o1 + o2) * numpy.tanh(c)


@testing.parameterize(*testing.product({
    "c_shape": [(3, 2), (2, 2, 3)],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSLSTM(testing.FunctionTestCase):
    def generate_inputs(self):
        c_shape = self.c_shape
        x_shape = (c_shape[0], 4 * c_shape[1]) + c_shape[2:]
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype)
                     for s in (c_shape, c_shape, x_shape, x_shape))

    def forward(self, inputs, device):
        return F.slstm(*inputs)

    def forward_expected(self, inputs):
        return tuple(y.astype(self.dtype) for y in slstm_reference(*inputs))


@pytest.mark.parametrize("output", [0, 1])
def test_gradient_through_one_output(output):
    rng = numpy.random.default_rng(0)
    inputs = tuple(rng.uniform(-1, 1, s) for s in ((2, 3), (2, 3), (2, 12), (2, 12)))

    def f(*xs):
        return F.slstm(*xs)[output],

    gy = rng.uniform(-1, 1, (2, 3))
    gradient_check.check_backward(f, inputs, (gy,), eps=1e-4)
    gradient_check.check_double_backward(f, inputs, (gy,),
                                         tuple(rng.uniform(-1, 1, x.shape) for x in inputs),
                                         eps=1e-4)


def test_cell_shape_mismatch_rejected():
    z = numpy.zeros
    with pytest.raises(ValueError, match=r"slstm: c_prev2.shape=\(3, 3\) does not match "
                                         r"c_prev1.shape=\(3, 2\)"):
        F.slstm(z((3, 2), "f"), z((3, 3), "f"), z((3, 8), "f"), z((3, 8), "f"))


def test_batch_mismatch_rejected():
    z = numpy.zeros
    with pytest.raises(ValueError, match=r"slstm: x2.shape\[0\]=2 does not match "
                                         r"c_prev1.shape\[0\]=3"):
        F.slstm(z((3, 2), "f"), z((3, 2), "f"), z((3, 8), "f"), z((2, 8), "f"))


def test_x_channels_mismatch_rejected():
    z = numpy.zeros
    with pytest.raises(ValueError, match=r"slstm: x1.shape\[1:\]=\(6,\) must be \(8,\)"):
        F.slstm(z((3, 2), "f"), z((3, 2), "f"), z((3, 6), "f"), z((3, 8), "f"))


def test_dtype_mismatch_rejected():
    z = numpy.zeros
    with pytest.raises(TypeError, match="slstm: dtypes must match"):
        F.slstm(z((3, 2), "f"), z((3, 2), "d"), z((3, 8), "f"), z((3, 8), "f"))
