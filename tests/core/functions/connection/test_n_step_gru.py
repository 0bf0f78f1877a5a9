import numpy
import pytest

import kusari.functions as F
from kusari import testing


def _sigmoid(v):
    return 1 / (1 + numpy.exp(-v))


def gru_cell(w, b, x, h, c):
    """Reset gate W_0/W_3, update gate W_1/W_4, candidate W_2 on x and W_5 on h (inside r)."""
    r = _sigmoid(w[0] @ x + b[0] + w[3] @ h + b[3])
    z = _sigmoid(w[1] @ x + b[1] + w[4] @ h + b[4])
    candidate = numpy.tanh(w[2] @ x + b[2] + r * (w[5] @ h + b[5]))
    return (1 - z) * candidate + z * h, None


@testing.parameterize(*testing.product({
    "bi": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestNStepGRU(testing.FunctionTestCase):
    @pytest.fixture(autouse=True)
    def _helpers(self, rnn):
        self.rnn = rnn
        self.n_groups = rnn.LAYERS * (2 if self.bi else 1)

    def generate_inputs(self):
        *states, ws, bs, xs = self.rnn.make_inputs(6, 2 if self.bi else 1, self.dtype, False)
        return self.rnn.flatten(states, ws, bs, xs)

    def forward(self, inputs, device):
        (hx,), ws, bs, xs = self.rnn.unflatten(inputs, 1, self.n_groups, 6)
        fn = F.n_step_bigru if self.bi else F.n_step_gru
        hy, ys = fn(self.rnn.LAYERS, 0.0, hx, ws, bs, xs)
        return (hy,) + tuple(ys)

    def forward_expected(self, inputs):
        (hx,), ws, bs, xs = self.rnn.unflatten(inputs, 1, self.n_groups, 6)
        hy, _, ys = self.rnn.reference(gru_cell, self.rnn.LAYERS, 2 if self.bi else 1, hx, None,
                                       ws, bs, xs)
        return tuple(a.astype(self.dtype) for a in [hy] + ys)


def test_weight_shape_errors_name_the_function(rnn):
    hx, ws, bs, xs = rnn.make_inputs(6, 2, numpy.float32, False, numpy.random.RandomState(0))
    bad = [list(g) for g in ws]
    bad[2][1] = numpy.zeros((2, 2), numpy.float32)  # layer 1 input weights act on 2N = 4 features
    with pytest.raises(ValueError, match=r"n_step_bigru: ws\[2\]\[1\] must have shape \(2, 4\), "
                                         r"got \(2, 2\)"):
        F.n_step_bigru(rnn.LAYERS, 0.0, hx, bad, bs, xs)
    with pytest.raises(ValueError, match=r"n_step_gru: hx must have shape \(n_layers \* 1, B, N\)"):
        F.n_step_gru(rnn.LAYERS, 0.0, hx, ws, bs, xs)
