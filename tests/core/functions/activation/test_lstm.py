import numpy
import pytest
import scipy.special

import kusari
import kusari.functions as F
from kusari import gradient_check, testing


def lstm_reference(c_prev, x):
    """NumPy LSTM in float64: gates interleaved on axis 1 in the order a, i, f, o."""
    c_prev, x = c_prev.astype(numpy.float64), x.astype(numpy.float64)
    batch, units = x.shape[0], x.shape[1] // 4
    gates = x.reshape((batch, units, 4) + x.shape[2:])
    a, i, f, o = (gates[:, :, k] for k in range(4))
    c = numpy.tanh(a) * scipy.special.expit(i) + scipy.special.expit(f) * c_prev[:batch]
    h = scipy.special.expit(o) * numpy.tanh(c)
    return numpy.concatenate([c, c_prev[batch:]]), h


@testing.parameterize(*testing.product({
    "shapes": [((3, 2), (3, 8)), ((4, 2), (2, 8)), ((2, 3, 2), (2, 12, 2))],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestLSTM(testing.FunctionTestCase):
    def generate_inputs(self):
        c_shape, x_shape = self.shapes
        return (numpy.random.uniform(-1, 1, c_shape).astype(self.dtype),
                numpy.random.uniform(-1, 1, x_shape).astype(self.dtype))

    def forward(self, inputs, device):
        return F.lstm(*inputs)

    def forward_expected(self, inputs):
        return tuple(y.astype(self.dtype) for y in lstm_reference(*inputs))


@pytest.mark.parametrize("output", [0, 1])
@pytest.mark.parametrize("batch", [3, 2])
def test_gradient_through_one_output(output, batch):
    # only c or only h is used, so backward sees None for the other output's gradient
    rng = numpy.random.default_rng(0)
    c_prev = rng.uniform(-1, 1, (3, 2))
    x = rng.uniform(-1, 1, (batch, 8))
    gy = rng.uniform(-1, 1, (3 if output == 0 else batch, 2))

    def f(c, x):
        return F.lstm(c, x)[output],

    gradient_check.check_backward(f, (c_prev, x), (gy,), eps=1e-4)
    gradient_check.check_double_backward(f, (c_prev, x), (gy,),
                                         (rng.uniform(-1, 1, (3, 2)), rng.uniform(-1, 1, (batch, 8))),
                                         eps=1e-4)


def test_rows_beyond_x_batch_are_copied():
    c_prev = numpy.random.uniform(-1, 1, (4, 2)).astype(numpy.float32)
    c, h = F.lstm(c_prev, numpy.zeros((1, 8), numpy.float32))
    numpy.testing.assert_array_equal(c.array[1:], c_prev[1:])
    assert h.shape == (1, 2)


def test_x_channels_mismatch_rejected():
    with pytest.raises(ValueError, match=r"lstm: x.shape\[1:\]=\(7,\) must be \(8,\) "
                                         r"\(4 gates of c_prev.shape\[1:\]=\(2,\)\)"):
        F.lstm(numpy.zeros((3, 2), numpy.float32), numpy.zeros((3, 7), numpy.float32))


def test_x_batch_larger_than_c_rejected():
    with pytest.raises(ValueError, match=r"lstm: x.shape\[0\]=4 exceeds c_prev.shape\[0\]=3"):
        F.lstm(numpy.zeros((3, 2), numpy.float32), numpy.zeros((4, 8), numpy.float32))


def test_rank_mismatch_rejected():
    with pytest.raises(ValueError, match="lstm: x must have the same number"):
        F.lstm(numpy.zeros((3, 2), numpy.float32), numpy.zeros((3, 8, 1), numpy.float32))


def test_dtype_mismatch_rejected():
    with pytest.raises(TypeError, match="lstm: dtypes must match"):
        F.lstm(numpy.zeros((3, 2), numpy.float32), numpy.zeros((3, 8), numpy.float64))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="lstm: c_prev must be a floating-point array"):
        F.lstm(numpy.zeros((3, 2), numpy.int32), numpy.zeros((3, 8), numpy.int32))


def test_accepts_variables_and_returns_two():
    c, h = F.lstm(kusari.Variable(numpy.zeros((1, 1), numpy.float32)),
                  kusari.Variable(numpy.zeros((1, 4), numpy.float32)))
    numpy.testing.assert_allclose(c.array, [[0.0]])
    numpy.testing.assert_allclose(h.array, [[0.0]])
