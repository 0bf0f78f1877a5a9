import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing

_ACT = {"tanh": numpy.tanh, "relu": lambda v: numpy.maximum(v, 0)}


@testing.parameterize(*testing.product({
    "activation": ["tanh", "relu"],
    "bi": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestNStepRNN(testing.FunctionTestCase):
    @pytest.fixture(autouse=True)
    def _helpers(self, rnn):
        self.rnn = rnn
        self.n_groups = rnn.LAYERS * (2 if self.bi else 1)

    def generate_inputs(self):
        *states, ws, bs, xs = self.rnn.make_inputs(2, 2 if self.bi else 1, self.dtype, False)
        return self.rnn.flatten(states, ws, bs, xs)

    def forward(self, inputs, device):
        (hx,), ws, bs, xs = self.rnn.unflatten(inputs, 1, self.n_groups, 2)
        fn = F.n_step_birnn if self.bi else F.n_step_rnn
        hy, ys = fn(self.rnn.LAYERS, 0.0, hx, ws, bs, xs, activation=self.activation)
        return (hy,) + tuple(ys)

    def forward_expected(self, inputs):
        (hx,), ws, bs, xs = self.rnn.unflatten(inputs, 1, self.n_groups, 2)
        act = _ACT[self.activation]

        def cell(w, b, x, h, c):
            return act(w[0] @ x + w[1] @ h + b[0] + b[1]), None
        hy, _, ys = self.rnn.reference(cell, self.rnn.LAYERS, 2 if self.bi else 1, hx, None, ws, bs, xs)
        return tuple(a.astype(self.dtype) for a in [hy] + ys)


@pytest.fixture
def problem(rnn):
    hx, ws, bs, xs = rnn.make_inputs(2, 1, numpy.float32, False, numpy.random.RandomState(0))
    return rnn.LAYERS, hx, ws, bs, xs


def test_dropout_applies_between_layers_in_training_only(problem):
    layers, hx, ws, bs, xs = problem
    plain = F.n_step_rnn(layers, 0.0, hx, ws, bs, xs)[0].array
    with kusari.using_config("train", False):
        numpy.testing.assert_array_equal(F.n_step_rnn(layers, 0.5, hx, ws, bs, xs)[0].array, plain)
    assert not numpy.allclose(F.n_step_rnn(layers, 0.5, hx, ws, bs, xs)[0].array, plain)
    with pytest.raises(ValueError, match=r"n_step_rnn: dropout_ratio must be in \[0, 1\), got 1.0"):
        F.n_step_rnn(layers, 1.0, hx, ws, bs, xs)
    # the first layer's input is never dropped
    one = F.n_step_rnn(1, 0.0, hx[:1], ws[:1], bs[:1], xs)[0].array
    numpy.testing.assert_array_equal(F.n_step_rnn(1, 0.9, hx[:1], ws[:1], bs[:1], xs)[0].array, one)


def test_rejects_unknown_activation_and_removed_keywords(problem):
    layers, hx, ws, bs, xs = problem
    with pytest.raises(ValueError, match="n_step_rnn: activation must be 'tanh' or 'relu', got 'gelu'"):
        F.n_step_rnn(layers, 0.0, hx, ws, bs, xs, activation="gelu")
    with pytest.raises(ValueError, match="n_step_rnn: the train argument is not supported anymore"):
        F.n_step_rnn(layers, 0.0, hx, ws, bs, xs, train=False)
    with pytest.raises(TypeError, match="n_step_birnn: unexpected keyword argument"):
        F.n_step_birnn(layers, 0.0, hx, ws, bs, xs, foo=1)


def test_rejects_unsorted_batches(problem):
    layers, hx, ws, bs, xs = problem
    with pytest.raises(ValueError, match=r"n_step_rnn: batch sizes must not increase over time .*"
                                         r"xs\[1\].shape=\(1, 3\) and xs\[2\].shape=\(3, 3\)"):
        F.n_step_rnn(layers, 0.0, hx, ws, bs, [xs[0], xs[2], xs[0]])


def test_rejects_bad_state_and_weight_shapes(problem):
    layers, hx, ws, bs, xs = problem
    with pytest.raises(ValueError, match=r"n_step_rnn: hx must have shape \(n_layers \* 1, B, N\) = "
                                         r"\(2, 3, N\) for B = len\(xs\[0\]\), got hx.shape=\(1, 3, 2\)"):
        F.n_step_rnn(layers, 0.0, hx[:1], ws, bs, xs)
    with pytest.raises(ValueError, match=r"n_step_birnn: hx must have shape \(n_layers \* 2, B, N\)"):
        F.n_step_birnn(layers, 0.0, hx, ws, bs, xs)
    bad = [list(g) for g in ws]
    bad[1][0] = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"n_step_rnn: ws\[1\]\[0\] must have shape \(2, 2\), got \(2, 3\)"):
        F.n_step_rnn(layers, 0.0, hx, bad, bs, xs)
    with pytest.raises(ValueError, match=r"n_step_rnn: ws\[0\] and bs\[0\] must hold 2 arrays each"):
        F.n_step_rnn(layers, 0.0, hx, [ws[0][:1], ws[1]], bs, xs)
    with pytest.raises(ValueError, match=r"n_step_rnn: ws and bs must hold n_layers \* 1 = 2 lists"):
        F.n_step_rnn(layers, 0.0, hx, ws[:1], bs, xs)
    with pytest.raises(ValueError, match="n_step_rnn: xs must hold at least one time step"):
        F.n_step_rnn(layers, 0.0, hx, ws, bs, [])
    with pytest.raises(ValueError, match="n_step_rnn: n_layers must be a positive integer, got 0"):
        F.n_step_rnn(0, 0.0, hx, ws, bs, xs)


def test_rejects_mixed_dtypes_and_integer_inputs(problem):
    layers, hx, ws, bs, xs = problem
    with pytest.raises(TypeError, match=r"n_step_rnn: dtypes must match \(hx.dtype=float64"):
        F.n_step_rnn(layers, 0.0, hx.astype(numpy.float64), ws, bs, xs)
    with pytest.raises(TypeError, match=r"n_step_rnn: xs\[1\] must be a floating-point array"):
        F.n_step_rnn(layers, 0.0, hx, ws, bs, [xs[0], xs[1].astype(numpy.int32), xs[2]])
