import numpy
import pytest

import kusari.functions as F
from kusari import testing


def _sigmoid(v):
    return 1 / (1 + numpy.exp(-v))


def lstm_cell(w, b, x, h, c):
    """Chainer's gate order: W_0..3 (input, forget, candidate, output) on x, W_4..7 on h."""
    pre = [w[j] @ x + w[j + 4] @ h + b[j] + b[j + 4] for j in range(4)]
    i, f, a, o = _sigmoid(pre[0]), _sigmoid(pre[1]), numpy.tanh(pre[2]), _sigmoid(pre[3])
    c = f * c + i * a
    return o * numpy.tanh(c), c


@testing.parameterize(*testing.product({
    "bi": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestNStepLSTM(testing.FunctionTestCase):
    @pytest.fixture(autouse=True)
    def _helpers(self, rnn):
        self.rnn = rnn
        self.n_groups = rnn.LAYERS * (2 if self.bi else 1)

    def generate_inputs(self):
        *states, ws, bs, xs = self.rnn.make_inputs(8, 2 if self.bi else 1, self.dtype, True)
        return self.rnn.flatten(states, ws, bs, xs)

    def forward(self, inputs, device):
        (hx, cx), ws, bs, xs = self.rnn.unflatten(inputs, 2, self.n_groups, 8)
        fn = F.n_step_bilstm if self.bi else F.n_step_lstm
        hy, cy, ys = fn(self.rnn.LAYERS, 0.0, hx, cx, ws, bs, xs)
        return (hy, cy) + tuple(ys)

    def forward_expected(self, inputs):
        (hx, cx), ws, bs, xs = self.rnn.unflatten(inputs, 2, self.n_groups, 8)
        hy, cy, ys = self.rnn.reference(lstm_cell, self.rnn.LAYERS, 2 if self.bi else 1, hx, cx,
                                        ws, bs, xs)
        return tuple(a.astype(self.dtype) for a in [hy, cy] + ys)


def test_cell_state_shape_must_match_hidden_state(rnn):
    hx, cx, ws, bs, xs = rnn.make_inputs(8, 1, numpy.float32, True, numpy.random.RandomState(0))
    with pytest.raises(ValueError, match=r"n_step_lstm: cx.shape=\(2, 2, 2\) must equal "
                                         r"hx.shape=\(2, 3, 2\)"):
        F.n_step_lstm(rnn.LAYERS, 0.0, hx, cx[:, :2], ws, bs, xs)
    with pytest.raises(ValueError, match=r"n_step_bilstm: hx must have shape \(n_layers \* 2, B, N\)"):
        F.n_step_bilstm(rnn.LAYERS, 0.0, hx, cx, ws, bs, xs)
    with pytest.raises(ValueError, match=r"n_step_lstm: ws\[0\] and bs\[0\] must hold 8 arrays each"):
        F.n_step_lstm(rnn.LAYERS, 0.0, hx, cx, [ws[0][:6], ws[1]], bs, xs)
