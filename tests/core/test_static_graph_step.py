"""static_graph over a whole train step (forward, cleargrads, backward, optimizer update): replays
equal eager steps bit for bit."""
import copy

import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import optimizer_hooks, optimizers
from kusari.static_graph import static_graph

assert_equal = numpy.testing.assert_array_equal


def _model(seed=0):
    numpy.random.seed(seed)
    return kusari.Sequential(L.Linear(6, 8), F.relu, L.Linear(8, 8), F.tanh, L.Linear(8, 3))


def _batches(n, batch=4, seed=1):
    rng = numpy.random.default_rng(seed)
    return [(rng.standard_normal((batch, 6)).astype(numpy.float32),
             rng.integers(0, 3, batch).astype(numpy.int32)) for _ in range(n)]


def _pair(make_optimizer):
    """Two identical (model, optimizer) pairs."""
    model = _model()
    twin = copy.deepcopy(model)
    return [(m, make_optimizer().setup(m)) for m in (model, twin)]


def _assert_same_params(a, b):
    for p, q in zip(a.params(), b.params()):
        assert_equal(p.array, q.array)


def _explicit_step(model, optimizer):
    def step(x, t):
        loss = F.softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        return loss
    return step


def _run_both(make_optimizer, make_step=_explicit_step, n=5):
    """Train a static and an eager copy side by side; returns the static step and both pairs."""
    (m1, o1), (m2, o2) = _pair(make_optimizer)
    static = static_graph(make_step(m1, o1))
    eager = make_step(m2, o2)
    for x, t in _batches(n):
        loss_s = static(x, t)
        loss_e = eager(x, t)
        if loss_e is not None:
            assert_equal(loss_s.array, loss_e.array)
        _assert_same_params(m1, m2)
        for p, q in zip(m1.params(), m2.params()):
            assert_equal(p.grad, q.grad)
    assert o1.t == o2.t == n
    return static, (m1, o1), (m2, o2)


@pytest.mark.parametrize("make_optimizer", [
    lambda: optimizers.SGD(lr=0.1),
    lambda: optimizers.MomentumSGD(lr=0.05),
    lambda: optimizers.Adam(alpha=0.01),
], ids=["SGD", "MomentumSGD", "Adam"])
def test_explicit_step_matches_eager_exactly(make_optimizer):
    static, _, _ = _run_both(make_optimizer)
    assert len(static._free) == 1                      # traced once, replayed four times


def test_optimizer_update_with_lossfun_matches_eager_exactly():
    def make_step(model, optimizer):
        def step(x, t):
            optimizer.update(lambda a, b: F.softmax_cross_entropy(model(a), b), x, t)
        return step
    _run_both(lambda: optimizers.MomentumSGD(lr=0.05), make_step)


def test_a_replay_runs_hooks_and_sees_hyperparameter_changes():
    (m1, o1), (m2, o2) = _pair(lambda: optimizers.SGD(lr=0.1))
    for o in (o1, o2):
        o.add_hook(optimizer_hooks.WeightDecay(0.01))
        o.add_hook(optimizer_hooks.GradientClipping(0.5))
    static = static_graph(_explicit_step(m1, o1))
    eager = _explicit_step(m2, o2)
    for i, (x, t) in enumerate(_batches(4)):
        o1.lr = o2.lr = 0.1 / (i + 1)                 # a schedule, as an extension would set it
        assert_equal(static(x, t).array, eager(x, t).array)
        _assert_same_params(m1, m2)


def test_dynamic_loss_scale_is_read_at_every_replay():
    def make_optimizer():
        optimizer = optimizers.SGD(lr=0.1)
        optimizer.loss_scaling(interval=2)
        return optimizer

    def make_step(model, optimizer):
        def step(x, t):
            optimizer.update(lambda a, b: F.softmax_cross_entropy(model(a), b), x, t)
        return step

    static, (m1, o1), (m2, o2) = _run_both(make_optimizer, make_step)
    assert o1.loss_scale == o2.loss_scale == 32.0      # doubled after each of the 5 finite steps


@pytest.mark.filterwarnings("ignore:(invalid value|overflow):RuntimeWarning")
def test_overflowing_step_is_skipped_in_a_replay():
    (m1, o1), (m2, o2) = _pair(lambda: optimizers.SGD(lr=0.1))
    for o in (o1, o2):
        o.loss_scaling()
    make_step = lambda m, o: lambda x, t: o.update(lambda a, b: F.softmax_cross_entropy(m(a), b), x, t)
    static, eager = static_graph(make_step(m1, o1)), make_step(m2, o2)
    (x, t), (x2, t2) = _batches(2)
    static(x, t)
    eager(x, t)
    before = [p.array.copy() for p in m1.params()]
    bad = x2.copy()
    bad[0, 0] = numpy.inf
    static(bad, t2)                                     # a replay: the inf gradients skip the update
    eager(bad, t2)
    for p, b in zip(m1.params(), before):
        assert_equal(p.array, b)
    _assert_same_params(m1, m2)
    assert o1.loss_scale == o2.loss_scale == 1.0        # 1 -> 2 after the first step, halved back


def test_explicit_seed_gradient_and_returned_values():
    (m1, o1), (m2, o2) = _pair(lambda: optimizers.SGD(lr=0.1))

    def make_step(model, optimizer):
        def step(x, t):
            y = model(x)
            y.grad = F.tanh(y).array            # a seed computed by an op: replayed with new values
            model.cleargrads()
            y.backward()
            optimizer.update()
            return y
        return step

    static, eager = static_graph(make_step(m1, o1)), make_step(m2, o2)
    for x, t in _batches(3):
        assert_equal(static(x, t).array, eager(x, t).array)
        _assert_same_params(m1, m2)


def test_ops_after_the_update_see_replaced_parameter_arrays():
    """A post-update hook that replaces every parameter array: a later forward in the same step
    must read the new arrays, as eager does."""
    def replace_arrays(optimizer):
        for p in optimizer.target.params():
            p.array = p.array * numpy.float32(0.5)

    (m1, o1), (m2, o2) = _pair(lambda: optimizers.SGD(lr=0.1))
    for o in (o1, o2):
        o.add_hook(replace_arrays, name="replace", timing="post")

    def make_step(model, optimizer):
        def step(x, t):
            optimizer.update(lambda a, b: F.softmax_cross_entropy(model(a), b), x, t)
            return model(x)                             # the forward with the updated weights
        return step

    static, eager = static_graph(make_step(m1, o1)), make_step(m2, o2)
    for x, t in _batches(3):
        assert_equal(static(x, t).array, eager(x, t).array)
        _assert_same_params(m1, m2)


def test_input_leaf_with_an_outer_graph_gets_its_gradient():
    """A Variable input made by ops outside the step: backprop continues through them, as eager."""
    rng = numpy.random.default_rng(0)
    w = kusari.Parameter(rng.standard_normal(5).astype(numpy.float32))
    v = kusari.Parameter(rng.standard_normal(5).astype(numpy.float32))

    @static_graph
    def step(x):
        w.cleargrad()
        F.sum(F.tanh(x * w)).backward()

    for use in (True, True, True, False):
        v.cleargrad()
        with kusari.using_config("use_static_graph", use):
            step(v * 2)
        if use:
            got = (w.grad.copy(), v.grad.copy())
    assert_equal(got[0], w.grad)
    assert_equal(got[1], v.grad)


def test_new_parameters_retrace_a_plain_function():
    model = _model()
    optimizer = optimizers.SGD(lr=0.1).setup(model)
    traces = []

    @static_graph
    def step(x, t):
        traces.append(1)
        loss = F.softmax_cross_entropy(model(x), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()

    (x, t), = _batches(1)
    step(x, t)
    step(x, t)
    model[0] = L.Linear(6, 8)                           # replaces a layer: new Parameters
    step(x, t)
    assert len(traces) == 2
    assert model[0].W.grad is not None


def test_unsupported_backward_options_and_grad_raise():
    w = kusari.Parameter(numpy.ones(3, numpy.float32))

    @static_graph
    def retain(x):
        F.sum(x * w).backward(retain_grad=True)

    @static_graph
    def double(x):
        F.sum(x * w).backward(enable_double_backprop=True)

    @static_graph
    def with_grad(x):
        return kusari.grad([F.sum(x * w)], [w])

    x = numpy.ones(3, numpy.float32)
    for f in (retain, double):
        with pytest.raises(NotImplementedError, match="retain_grad=True.*enable_double_backprop"):
            f(x)
    with pytest.raises(NotImplementedError, match="grad: not supported inside a static_graph"):
        with_grad(x)


def test_lossfun_must_return_a_variable():
    model = _model()
    optimizer = optimizers.SGD().setup(model)
    with pytest.raises(TypeError, match="SGD.update: lossfun must return a Variable, got float"):
        optimizer.update(lambda: 1.0)


def test_standard_updater_with_static_graph_matches_eager_under_the_trainer(tmp_path):
    """A Trainer whose updater replays the whole step: the same weights and reported values as an
    eager run, from one trace (every batch has 8 examples: a batch that crosses an epoch's end is
    filled from the next epoch)."""
    from kusari import iterators, training
    from kusari.training import extensions
    rng = numpy.random.default_rng(3)
    x = rng.standard_normal((20, 6)).astype(numpy.float32)
    t = rng.integers(0, 3, 20).astype(numpy.int32)
    dataset = list(zip(x, t))

    def train(static):
        model = L.Classifier(_model())
        optimizer = optimizers.MomentumSGD(lr=0.05).setup(model)
        it = iterators.SerialIterator(dataset, 8, shuffle=False)
        updater = training.StandardUpdater(it, optimizer, static_graph=static)
        trainer = training.Trainer(updater, (2, "epoch"), out=str(tmp_path / str(static)))
        log = extensions.LogReport(trigger=(1, "iteration"))
        trainer.extend(log)
        trainer.run()
        return model, log.log, updater

    (static, static_log, updater), (eager, eager_log, _) = train(True), train(False)
    _assert_same_params(static, eager)
    assert len(static_log) == len(eager_log) == 5
    for a, b in zip(static_log, eager_log):
        assert a["main/loss"] == b["main/loss"] and a["main/accuracy"] == b["main/accuracy"]
    assert len(updater._step._free) == 1


def test_a_forward_that_clears_gradients_does_not_keep_its_chain_alive():
    """Schedules are cached per owning Chain in a weak mapping; a recorded ``self.cleargrads()``
    must not hold the Chain strongly, or the Chain (and its cache) would never be freed."""
    import gc
    import weakref

    class Net(kusari.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(3, 2)

        @static_graph
        def forward(self, x):
            self.cleargrads()
            return F.sum(self.l(x))

    net = Net()
    x = numpy.ones((1, 3), numpy.float32)
    for _ in range(3):
        net(x).backward()
    numpy.testing.assert_array_equal(net.l.b.grad, [1, 1])     # cleared at each replay, not summed
    ref = weakref.ref(net)
    del net
    gc.collect()
    assert ref() is None
