"""Tests for kusari.static_graph: replayed forward/backward equal eager mode bit for bit."""

import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import _tracing, optimizers
from kusari._static_signature import flatten, signature
from kusari.static_graph import static_code, static_graph

assert_equal = numpy.testing.assert_array_equal


def _linear(n_in, n_out, rng):
    link = kusari.Link()
    with link.init_scope():
        link.W = kusari.Parameter(rng.standard_normal((n_out, n_in)).astype(numpy.float32))
        link.b = kusari.Parameter(rng.standard_normal(n_out).astype(numpy.float32))
    return link


class MLP(kusari.Chain):
    """Linear-relu-(dropout)-linear-softmax_cross_entropy; ``traces`` counts Python runs of forward."""

    def __init__(self, sizes=(4, 8, 3), dropout=0.0, seed=0):
        super().__init__()
        rng = numpy.random.default_rng(seed)
        with self.init_scope():
            self.l1 = _linear(sizes[0], sizes[1], rng)
            self.l2 = _linear(sizes[1], sizes[2], rng)
        self.dropout = dropout
        self.traces = 0

    @static_graph
    def forward(self, x, t):
        self.traces += 1
        h = F.relu(F.linear(x, self.l1.W, self.l1.b))
        if self.dropout:
            h = F.dropout(h, self.dropout)
        y = F.linear(h, self.l2.W, self.l2.b)
        return F.softmax_cross_entropy(y, t)


def _data(batch=5, n_in=4, n_out=3, seed=1):
    rng = numpy.random.default_rng(seed)
    return (rng.standard_normal((batch, n_in)).astype(numpy.float32),
            rng.integers(0, n_out, batch).astype(numpy.int32))


def _step(model, *args, seed=None):
    """Forward + backward; returns the loss array and copies of the parameter grads."""
    if seed is not None:
        numpy.random.seed(seed)
    loss = model(*args)
    loss.backward()
    return loss.array.copy(), [p.grad.copy() for p in model.params()]


def _eager(fn, *args, **kwargs):
    with kusari.using_config("use_static_graph", False):
        return fn(*args, **kwargs)


def _assert_same(static_result, eager_result):
    (ls, gs), (le, ge) = static_result, eager_result
    assert_equal(ls, le)
    assert len(gs) == len(ge)
    for a, b in zip(gs, ge):
        assert_equal(a, b)


def test_mlp_replay_matches_eager_exactly():
    static, eager = MLP(), MLP()
    for i in range(4):
        x, t = _data(seed=i)
        static.cleargrads()
        eager.cleargrads()
        _assert_same(_step(static, x, t), _eager(_step, eager, x, t))
    assert static.traces == 1
    assert eager.traces == 4
    assert static(*_data()).creator.label == "StaticGraph(MLP.forward)"


def test_closed_form_gradients_of_a_plain_function():
    @static_graph
    def f(x, w):
        return F.sum(x * w)

    rng = numpy.random.default_rng(0)
    w = kusari.Variable(rng.standard_normal(6).astype(numpy.float32))
    for i in range(3):
        x = rng.standard_normal(6).astype(numpy.float32)
        w.cleargrad()
        y = f(x, w)
        y.backward()
        assert_equal(w.grad, x)                           # d/dw sum(x * w) = x
        assert y.array == numpy.sum(x * w.array, dtype=numpy.float32)


def test_input_variable_gradient_matches_eager():
    @static_graph
    def f(x, w):
        return F.sum(F.tanh(x * w) * x)

    rng = numpy.random.default_rng(0)
    w = kusari.Parameter(rng.standard_normal(5).astype(numpy.float32))
    for i in range(3):
        data = rng.standard_normal(5).astype(numpy.float32)
        grads = []
        for use in (True, False):
            x = kusari.Variable(data.copy())
            w.cleargrad()
            with kusari.using_config("use_static_graph", use):
                f(x, w).backward()
            grads.append((x.grad.copy(), w.grad.copy()))
        assert_equal(grads[0][0], grads[1][0])
        assert_equal(grads[0][1], grads[1][1])


def test_dropout_draws_fresh_masks_like_eager():
    static, eager = MLP(dropout=0.5), MLP(dropout=0.5)
    x, t = _data(batch=16)
    losses = []
    for seed in range(4):
        static.cleargrads()
        eager.cleargrads()
        s = _step(static, x, t, seed=seed)
        _assert_same(s, _eager(_step, eager, x, t, seed=seed))
        losses.append(s[0])
    # same input, different seeds: a replay that reused the traced mask would repeat the loss
    assert len({float(v) for v in losses}) == 4


class BN(kusari.Chain):
    def __init__(self):
        super().__init__()
        rng = numpy.random.default_rng(3)
        with self.init_scope():
            self.gamma = kusari.Parameter(rng.uniform(0.5, 1.5, 3).astype(numpy.float32))
            self.beta = kusari.Parameter(rng.standard_normal(3).astype(numpy.float32))
        self.mean = numpy.zeros(3, numpy.float32)
        self.var = numpy.ones(3, numpy.float32)

    @static_graph
    def forward(self, x):
        y = F.batch_normalization(x, self.gamma, self.beta, running_mean=self.mean,
                                  running_var=self.var, decay=0.8)
        return F.sum(y * y * y)


def _bn_runs():
    static, eager = BN(), BN()
    rng = numpy.random.default_rng(4)
    for i in range(3):
        x = rng.standard_normal((6, 3)).astype(numpy.float32)
        static.cleargrads()
        eager.cleargrads()
        yield static, eager, _step(static, x), _eager(_step, eager, x)


def test_batch_normalization_output_and_grads_match_eager():
    for _, _, s, e in _bn_runs():
        _assert_same(s, e)


def test_batch_normalization_running_statistics_match_eager():
    for static, eager, _, _ in _bn_runs():
        assert_equal(static.mean, eager.mean)
        assert_equal(static.var, eager.var)


def test_retrace_on_new_batch_size():
    static, eager = MLP(), MLP()
    for batch in (5, 5, 3, 5, 3):
        x, t = _data(batch=batch, seed=batch)
        static.cleargrads()
        eager.cleargrads()
        _assert_same(_step(static, x, t), _eager(_step, eager, x, t))
    assert static.traces == 2


def test_retrace_on_train_and_backprop_config():
    static, eager = MLP(dropout=0.5), MLP(dropout=0.5)
    x, t = _data()
    for train in (True, False, True, False):
        with kusari.using_config("train", train):
            static.cleargrads()
            eager.cleargrads()
            _assert_same(_step(static, x, t, seed=7), _eager(_step, eager, x, t, seed=7))
    assert static.traces == 2
    with kusari.no_backprop_mode():
        numpy.random.seed(8)
        y = static(x, t)
        numpy.random.seed(8)
        assert_equal(y.array, _eager(eager, x, t).array)
        assert y.creator is None
    assert static.traces == 3


def test_retrace_when_parameters_change():
    static = MLP()
    x, t = _data()
    static(x, t)
    static(x, t)
    assert static.traces == 1
    with static.init_scope():
        static.extra = kusari.Parameter(numpy.zeros(2, numpy.float32))
    static(x, t)
    assert static.traces == 2


def test_replaced_parameter_array_is_read_at_every_call():
    static, eager = MLP(), MLP()
    x, t = _data()
    static(x, t)
    for model in (static, eager):
        model.l1.W.array = model.l1.W.array * numpy.float32(2)
        model.cleargrads()
    _assert_same(_step(static, x, t), _eager(_step, eager, x, t))


def test_use_static_graph_false_runs_eagerly_every_call():
    model = MLP()
    x, t = _data()
    with kusari.using_config("use_static_graph", False):
        for _ in range(3):
            y = model(x, t)
    assert model.traces == 3
    assert type(y.creator).__name__ == "SoftmaxCrossEntropy"


def test_force_test_define_by_run_option():
    calls = []

    @static_graph(force_test_define_by_run=True)
    def f(x):
        calls.append(1)
        return F.relu(x)

    for _ in range(3):
        f(numpy.ones(2, numpy.float32))
    assert len(calls) == 3


def test_static_code_runs_every_call_and_feeds_later_ops():
    counter = {"n": 0}

    @static_code
    def tick(h):
        counter["n"] += 1
        return h.array * numpy.float32(counter["n"])      # depends on per-call state

    class Model(MLP):
        @static_graph
        def forward(self, x, t):
            self.traces += 1
            h = F.relu(F.linear(x, self.l1.W, self.l1.b))
            h = h + tick(h)
            return F.softmax_cross_entropy(F.linear(h, self.l2.W, self.l2.b), t)

    static, eager = Model(), Model()
    x, t = _data()
    for _ in range(4):
        static.cleargrads()
        s = _step(static, x, t)
        counter["n"] -= 1          # the eager run must see the same count
        eager.cleargrads()
        _assert_same(s, _eager(_step, eager, x, t))
    assert static.traces == 1
    assert counter["n"] == 4


def test_report_gives_replayed_values_every_call():
    class Model(MLP):
        @static_graph
        def forward(self, x, t):
            loss = MLP.forward.__wrapped__(self, x, t)
            kusari.report({"loss": loss, "double": loss * 2}, self)
            return loss

    model, eager = Model(), Model()
    reporter = kusari.Reporter()
    reporter.add_observer("main", model)
    for i in range(3):
        x, t = _data(seed=10 + i)
        observation = {}
        with reporter.scope(observation):
            model(x, t)
        expected = _eager(eager, x, t).array
        assert_equal(observation["main/loss"], expected)
        assert_equal(observation["main/double"], expected * 2)
    assert model.traces == 1


def test_grads_accumulate_across_calls_without_cleargrads():
    static, eager = MLP(), MLP()
    for i in range(3):                          # trace, then two replays
        x, t = _data(seed=20 + i)
        _assert_same(_step(static, x, t), _eager(_step, eager, x, t))


def test_sgd_loop_is_bit_identical_to_eager():
    static, eager = MLP(dropout=0.25), MLP(dropout=0.25)
    opt_s, opt_e = optimizers.SGD(lr=0.1), optimizers.SGD(lr=0.1)
    opt_s.setup(static)
    opt_e.setup(eager)
    for i in range(5):
        x, t = _data(seed=30 + i)
        numpy.random.seed(i)
        opt_s.update(static, x, t)
        numpy.random.seed(i)
        _eager(opt_e.update, eager, x, t)
    for (name, a), (_, b) in zip(sorted(static.namedparams()), sorted(eager.namedparams())):
        assert_equal(a.array, b.array, err_msg=name)
    assert static.traces == 1


def test_trainer_runs_are_bit_identical():
    training = pytest.importorskip("kusari.training")
    from kusari import iterators

    x, t = _data(batch=24, seed=40)
    dataset = list(zip(x, t))

    def train(use_static):
        model = MLP()
        opt = optimizers.SGD(lr=0.1)
        opt.setup(model)
        it = iterators.SerialIterator(dataset, 6, shuffle=False)
        trainer = training.Trainer(training.StandardUpdater(it, opt), (8, "iteration"))
        with kusari.using_config("use_static_graph", use_static):
            trainer.run()
        return model

    static, eager = train(True), train(False)
    for (name, a), (_, b) in zip(sorted(static.namedparams()), sorted(eager.namedparams())):
        assert_equal(a.array, b.array, err_msg=name)
    assert static.traces == 1
    assert eager.traces == 8


def test_backward_of_a_stale_replay_raises():
    model = MLP()
    x, t = _data()
    model(x, t)
    first = model(x, t)
    model(x, t)
    with pytest.raises(RuntimeError, match="static_graph"):
        first.backward()


def test_double_backprop_raises_not_implemented():
    model = MLP()
    x, t = _data()
    model(x, t)
    with pytest.raises(NotImplementedError, match="double backprop"):
        model(x, t).backward(enable_double_backprop=True)


def test_trace_hook_is_removed_after_a_failing_trace():
    @static_graph
    def f(x):
        F.relu(x)
        raise KeyError("boom")

    with pytest.raises(KeyError):
        f(numpy.ones(2, numpy.float32))
    assert _tracing.trace_hook.on_apply is None
    assert _tracing.trace_hook.current(include_paused=True) is None


def test_bad_arguments():
    with pytest.raises(TypeError, match="static_graph"):
        static_graph(lambda x: x, lambda x: x)
    with pytest.raises(NotImplementedError, match="enable_double_backprop"):
        static_graph(enable_double_backprop=True)
    with pytest.raises(TypeError, match="static_graph"):
        static_graph(3)

    @static_graph
    def f(x, opts):
        return x

    with pytest.raises(TypeError, match="unhashable"):
        f(numpy.ones(2, numpy.float32), {"a": {1, 2}})


def test_several_outputs_feeding_eager_ops_match_eager():
    @static_graph
    def f(x, w):
        h = F.tanh(F.matmul(x, w))
        # h gets one gradient inside and one outside: sums of two terms are order-free
        return {"h": h, "parts": (F.sum(F.exp(h)), h.array)}

    rng = numpy.random.default_rng(5)
    w = kusari.Parameter(rng.standard_normal((3, 2)).astype(numpy.float32))
    for i in range(3):
        x = rng.standard_normal((4, 3)).astype(numpy.float32)
        results = []
        for use in (True, False):
            w.cleargrad()
            with kusari.using_config("use_static_graph", use):
                out = f(x, w)
            loss = out["parts"][0] + F.sum(out["h"] * 3)
            loss.backward()
            results.append((loss.array, out["parts"][1], w.grad.copy()))
        for a, b in zip(*results):
            assert_equal(a, b)


def test_multi_output_op_with_some_outputs_unused_matches_eager():
    @static_graph
    def f(x, w, use_both):
        a, b = F.split_axis(F.matmul(x, w), 2, axis=1)
        return F.sum(a * b) if use_both else F.sum(F.exp(a))   # without use_both, b gets no gradient

    rng = numpy.random.default_rng(7)
    w = kusari.Parameter(rng.standard_normal((3, 4)).astype(numpy.float32))
    for use_both in (False, True):
        for i in range(3):
            x = rng.standard_normal((2, 3)).astype(numpy.float32)
            results = []
            for use in (True, False):
                w.cleargrad()
                with kusari.using_config("use_static_graph", use):
                    loss = f(x, w, use_both)
                loss.backward()
                results.append((loss.array, w.grad.copy()))
            assert_equal(results[0][0], results[1][0])
            assert_equal(results[0][1], results[1][1])
            # closed form: d/dw of sum(exp(x w[:, :2])) or of sum((x w[:, :2]) * (x w[:, 2:]))
            h = x @ w.array
            gh = (numpy.concatenate([numpy.exp(h[:, :2]), numpy.zeros_like(h[:, 2:])], axis=1)
                  if not use_both else numpy.concatenate([h[:, 2:], h[:, :2]], axis=1))
            numpy.testing.assert_allclose(results[0][1], x.T @ gh, rtol=1e-5, atol=1e-6)


def test_positional_array_arguments_share_the_general_cache_key():
    x = numpy.ones((2, 3), numpy.float32)
    v = kusari.Variable(numpy.zeros(4, numpy.float64), requires_grad=False)
    for args, kwargs in (((x, v), {}), ((), {}), ((x, 3), {}), ((x,), {"scale": 2})):
        fast, general = [], []
        assert signature(args, kwargs, fast, "f") == flatten((args, kwargs), general, "f")
        assert [id(a) for a in fast] == [id(a) for a in general]


def test_non_differentiable_values_are_recomputed_at_every_replay():
    """Accuracy, comparisons, sign and the other gradient-free functions run as ops: a replay
    computes them from its own data, as eager mode does."""
    @static_graph
    def metrics(y, t, r, b):
        v = kusari.Variable(y)
        return (F.accuracy(y, t), F.binary_accuracy(y, b), F.r2_score(y, r), F.sign(v), v > 0,
                v >= r, F.classification_summary(y, t, label_num=3)[0])

    rng = numpy.random.default_rng(5)
    for _ in range(3):
        y = rng.standard_normal((8, 3)).astype(numpy.float32)
        t = rng.integers(0, 3, 8).astype(numpy.int32)
        r = rng.standard_normal((8, 3)).astype(numpy.float32)
        b = rng.integers(0, 2, (8, 3)).astype(numpy.int32)
        for got, want in zip(metrics(y, t, r, b), _eager(metrics, y, t, r, b)):
            assert_equal(got.array, want.array)


def test_errors_in_a_replay_show_the_generated_line():
    """Replays run generated code; its source is registered, so a traceback through it shows the
    line (here a label out of range, found by the op at the second call)."""
    import traceback

    @static_graph
    def loss(x, t):
        return F.softmax_cross_entropy(x, t)

    x = numpy.zeros((2, 3), numpy.float32)
    loss(x, numpy.array([0, 1], numpy.int32))
    with pytest.raises(ValueError, match="softmax_cross_entropy: t values must be in") as info:
        loss(x, numpy.array([0, 7], numpy.int32))
    text = "".join(traceback.format_exception(info.value))
    assert "loss forward #" in text and "o = f0(a)" in text


class _BadArrayBackward(kusari.FunctionNode):
    """An op whose array-level backward returns what ``returned(gy)`` gives."""

    def __init__(self, returned):
        self._returned = returned

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 2,

    def backward_arrays(self, indexes, grad_outputs):
        return self._returned(grad_outputs[0])


@pytest.mark.parametrize("returned, error, message", [
    (lambda gy: (gy * 2, gy * 2), ValueError, "backward_arrays returned 2 gradients for 1"),
    (lambda gy: (gy[:1] * 2,), ValueError, r"backward_arrays returned a gradient of shape \(1,\)"),
    (lambda gy: ((gy * 2).tolist(),), TypeError, "backward_arrays must return arrays or None, got list"),
])
def test_a_replayed_backward_checks_what_backward_arrays_returns(returned, error, message):
    @static_graph
    def f(x):
        return F.sum(_BadArrayBackward(returned).apply((x,))[0])

    x = kusari.Variable(numpy.ones(3, numpy.float32))
    f(x)                                              # trace
    with pytest.raises(error, match="_BadArrayBackward." + message):
        f(x).backward()                               # replay: the generated backward


def test_zero_dim_array_argument_is_read_at_every_replay():
    # a per-call scalar (SAC's temperature) passed as a 0-d array of the Variable's dtype is an
    # operand of the replayed ops, not a constant frozen at the trace
    @kusari.static_graph
    def scaled(x, t):
        return t * x - x * t + x / t

    x = kusari.Variable(numpy.arange(3, dtype=numpy.float32))
    for value in (1.0, 2.0, 4.0):
        t = numpy.asarray(value, numpy.float32)
        with kusari.using_config("use_static_graph", False):
            expected = scaled(x, t).array
        numpy.testing.assert_array_equal(scaled(x, t).array, expected)
        numpy.testing.assert_array_equal(expected, numpy.arange(3, dtype=numpy.float32) / value)
