"""RecurrentSequential and the recurrent helpers against explicit per-step loops."""
import kusari
import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari.rl.nn import Branched, RecurrentSequential, is_recurrent
from kusari.rl.nn.recurrent import call_packed
from kusari.rl.utils.recurrent import (
    concatenate_recurrent_states,
    get_recurrent_state_at,
    mask_recurrent_state_at,
    one_step_forward,
    pack_and_forward,
)

LENGTHS = [3, 1, 4]


def _model(cell):
    numpy.random.seed(0)
    rnn = L.NStepLSTM(1, 5, 6, 0.0) if cell == "lstm" else L.NStepGRU(2, 5, 6, 0.0)
    return RecurrentSequential(L.Linear(3, 5), F.tanh, rnn, L.Linear(6, 2))


def _sequences():
    rng = numpy.random.RandomState(1)
    return [rng.randn(n, 3).astype(numpy.float32) for n in LENGTHS]


def _leaves(state):
    if isinstance(state, tuple):
        return [leaf for s in state for leaf in _leaves(s)]
    return [state.array if isinstance(state, kusari.Variable) else state]


def _random_state(model, batch):
    rng = numpy.random.RandomState(2)
    rnn = model.recurrent_children[0]
    shape = (rnn.n_layers, batch, rnn.out_size)
    if rnn.use_cell:
        return ((rng.randn(*shape).astype(numpy.float32), rng.randn(*shape).astype(numpy.float32)),)
    return (rng.randn(*shape).astype(numpy.float32),)


def _step_by_step(model, xs, state):
    """Each sequence run alone, one step at a time, from its own entry of ``state``."""
    outputs, finals = [], []
    for b, x in enumerate(xs):
        s = None if state is None else get_recurrent_state_at(state, [b], detach=False)
        for t in range(len(x)):
            y, s = one_step_forward(model, x[t:t + 1], s)
            outputs.append(y)
        finals.append(get_recurrent_state_at(s, 0, detach=False))
    return F.concat(outputs, axis=0), concatenate_recurrent_states(finals)


@pytest.mark.parametrize("cell", ["lstm", "gru"])
@pytest.mark.parametrize("initial", ["zeros", "given"])
def test_packed_forward_equals_step_loop(cell, initial):
    model = _model(cell)
    xs = _sequences()
    state = None if initial == "zeros" else _random_state(model, len(xs))
    y, final = model(xs, state)
    y_loop, final_loop = _step_by_step(model, xs, state)
    assert y.shape == (sum(LENGTHS), 2)
    numpy.testing.assert_allclose(y.array, y_loop.array, rtol=1e-5, atol=1e-6)
    for a, b in zip(_leaves(final), _leaves(final_loop), strict=True):
        numpy.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    # pack_and_forward is the same call
    y2, _ = pack_and_forward(model, xs, state)
    numpy.testing.assert_array_equal(y2.array, y.array)


def test_gradients_equal_step_loop():
    model = _model("lstm")
    xs = _sequences()
    state = _random_state(model, len(xs))
    weights = numpy.random.RandomState(3).randn(sum(LENGTHS), 2).astype(numpy.float32)
    grads = []
    for run in (lambda: model(xs, state)[0], lambda: _step_by_step(model, xs, state)[0]):
        model.cleargrads()
        F.sum(run() * weights).backward()
        grads.append({name: p.grad.copy() for name, p in model.namedparams()})
    assert set(grads[0]) == set(grads[1]) and len(grads[0]) == 20
    for name in grads[0]:
        numpy.testing.assert_allclose(grads[0][name], grads[1][name], rtol=1e-4, atol=1e-6,
                                      err_msg=name)


def test_nested_and_branched():
    """A recurrent member inside another, and a Branched head on the packed rows."""
    numpy.random.seed(0)
    inner = RecurrentSequential(L.Linear(3, 4), L.NStepGRU(1, 4, 4, 0.0))
    model = RecurrentSequential(inner, L.NStepLSTM(1, 4, 4, 0.0),
                                Branched(L.Linear(4, 2), L.Linear(4, 1)))
    xs = _sequences()
    (a, v), state = model(xs, None)
    assert a.shape == (8, 2) and v.shape == (8, 1)
    assert len(state) == 2 and len(state[0]) == 1 and len(state[1]) == 2
    (a_loop, v_loop), _ = one_step_forward(model, xs[2][:1], None)
    numpy.testing.assert_allclose(a_loop.array, a.array[4:5], rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(v_loop.array, v.array[4:5], rtol=1e-5, atol=1e-6)


def test_state_helpers():
    model = _model("lstm")
    state = _random_state(model, 3)
    h = state[0][0]
    one = get_recurrent_state_at(state, 1, detach=True)
    assert one[0][0].shape == (1, 6)
    numpy.testing.assert_array_equal(one[0][0], h[:, 1])
    some = get_recurrent_state_at(state, [2, 0], detach=True)
    numpy.testing.assert_array_equal(some[0][1], state[0][1][:, [2, 0]])
    # split then concatenated again gives the state back; None entries become zeros
    again = concatenate_recurrent_states([get_recurrent_state_at(state, i, True) for i in range(3)])
    for a, b in zip(_leaves(again), _leaves(state), strict=True):
        numpy.testing.assert_array_equal(a, b)
    with_none = concatenate_recurrent_states([None, one, None])
    numpy.testing.assert_array_equal(with_none[0][0][:, 1], h[:, 1])
    assert not with_none[0][0][:, [0, 2]].any()
    assert concatenate_recurrent_states([None, None]) is None
    # masking zeroes the chosen entries only, and keeps the others' graph
    variable = kusari.Variable(h)
    masked = mask_recurrent_state_at(((variable, state[0][1]),), [0, 2])
    assert not masked[0][0].array[:, [0, 2]].any()
    numpy.testing.assert_array_equal(masked[0][0].array[:, 1], h[:, 1])
    F.sum(masked[0][0]).backward()
    numpy.testing.assert_array_equal(variable.grad[:, 1], numpy.ones_like(h[:, 1]))
    assert not variable.grad[:, [0, 2]].any()
    assert mask_recurrent_state_at(None, [0]) is None
    # a masked entry continues as if from zeros
    x = numpy.ones((3, 3), numpy.float32)
    y_masked, _ = one_step_forward(model, x, mask_recurrent_state_at(state, 1))
    y_zero, _ = one_step_forward(model, x[1:2], None)
    numpy.testing.assert_allclose(y_masked.array[1:2], y_zero.array, rtol=1e-6)


def test_is_recurrent():
    assert is_recurrent(_model("gru")) and is_recurrent(L.NStepGRU(1, 2, 2, 0.0))
    assert not is_recurrent(L.Linear(2, 2)) and not is_recurrent(kusari.Sequential(L.Linear(2, 2)))


def test_bad_input():
    model = _model("lstm")
    with pytest.raises(TypeError, match="one_step_forward: Linear is not recurrent"):
        one_step_forward(L.Linear(3, 2), numpy.zeros((1, 3), numpy.float32), None)
    with pytest.raises(ValueError, match=r"RecurrentSequential: recurrent_state must be None or a "
                                         r"tuple of 1 states .*got a tuple of 2"):
        model([numpy.zeros((2, 3), numpy.float32)], (None, None))
    with pytest.raises(ValueError, match=r"pack_and_forward: sequence 1 must be an array of shape "
                                         r"\(T, \.\.\.\) with T >= 1, got ndarray of shape \(0, 3\)"):
        pack_and_forward(model, [numpy.zeros((2, 3), numpy.float32),
                                 numpy.zeros((0, 3), numpy.float32)], None)
    with pytest.raises(TypeError, match="RecurrentSequential: expected a non-empty list"):
        model(numpy.zeros((2, 3), numpy.float32), None)
    with pytest.raises(TypeError, match="call_packed: NStepBiGRU is bidirectional"):
        RecurrentSequential(L.NStepBiGRU(1, 3, 2, 0.0))([numpy.zeros((2, 3), numpy.float32)])
    with pytest.raises(ValueError, match=r"NStepGRU: the packed input has 5 rows but the sequence "
                                         r"lengths \[2, 2\] sum to 4"):
        call_packed(L.NStepGRU(1, 3, 2, 0.0), numpy.zeros((5, 3), numpy.float32), [2, 2], None)
