"""static_graph(cuda_graph=True) on the CPU: the option on NumPy arrays, and the capture decisions
(warm-up, capture, launch, copies in and out, guards, recapture, fallback) driven through a stand-in
CuPy backend whose "graphs" rerun the captured segment on the buffers of the capture, as a CUDA
graph reads and writes the addresses it captured."""
import contextlib
import copy
import warnings

import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import _cuda_graph, optimizers
from kusari.function_node import FunctionNode
from kusari.static_graph import static_graph

assert_equal = numpy.testing.assert_array_equal


class FakeGraph:
    """What a capture recorded: launching reruns it on the arrays of the capture and writes the results
    into those same arrays (a CUDA graph's fixed addresses)."""

    def __init__(self, func, args, static):
        self.func, self.args, self.static = func, args, static

    def launch(self):
        schedule, _, inputs = self.args
        vals = list(self.static)
        self.func(schedule, vals, inputs)
        for old, new in zip(self.static, vals):
            if new is not old and old is not None and old.flags.writeable:
                numpy.copyto(old, new)


class FakeBackend:
    """Stands in for ``_cuda_graph.CupyBackend``: NumPy arrays are the 'device' arrays (except
    ``host_dtypes``); a capture does not compute: what it writes holds NaN until a launch."""

    current = None

    def __init__(self, host_dtypes=()):
        self.host_dtypes = {numpy.dtype(d) for d in host_dtypes}
        self.capturing = False
        self.log = []
        FakeBackend.current = self

    def reset(self):
        self.log.append("reset")

    def is_device(self, array):
        return isinstance(array, numpy.ndarray) and array.dtype not in self.host_dtypes

    def run(self, func, *args):
        self.log.append("run")
        func(*args)

    def capture(self, func, *args):
        self.log.append("capture")
        schedule, vals, inputs = args
        before = list(vals)
        self.capturing = True
        try:
            func(*args)
        finally:
            self.capturing = False
        for old, new in zip(before, vals):
            if new is not old and isinstance(new, numpy.ndarray) and new.base is None and new.dtype.kind == "f":
                new.fill(numpy.nan)     # captured, not computed
        return FakeGraph(func, args, list(vals))

    def launch(self, graph):
        self.log.append("launch")
        graph.launch()


@pytest.fixture(autouse=True)
def _no_backend_yet():
    FakeBackend.current = None


@pytest.fixture
def fake(monkeypatch):
    """NumPy work takes the stand-in backend."""
    monkeypatch.setattr(_cuda_graph, "cupy_backend_for", lambda arrays: FakeBackend())


def _model(seed=0):
    numpy.random.seed(seed)
    return kusari.Sequential(L.Linear(6, 8), F.relu, L.Linear(8, 8), F.tanh, L.Linear(8, 3))


def _batches(n, batch=4, seed=1):
    rng = numpy.random.default_rng(seed)
    return [(rng.standard_normal((batch, 6)).astype(numpy.float32),
             rng.integers(0, 3, batch).astype(numpy.int32)) for _ in range(n)]


def _train_step(model, optimizer, x, t):
    loss = F.softmax_cross_entropy(model(x), t)
    model.cleargrads()
    loss.backward()
    optimizer.update()
    return loss


def _replayer(fn):
    """The one cached schedule (or replayer) of a static_graph-decorated plain function."""
    (entry,) = list(fn._free.values()) + [e for cache in fn._owned.values() for e in cache.values()]
    return entry


def _run_pair(make_optimizer, steps=7, step=_train_step, between=None, **options):
    """Losses and models of a cuda_graph static step and of the same step run eagerly."""
    model = _model()
    twin = copy.deepcopy(model)
    opt, opt_twin = make_optimizer().setup(model), make_optimizer().setup(twin)
    static_step = static_graph(step, cuda_graph=True, **options)
    losses, eager_losses = [], []
    for i, (x, t) in enumerate(_batches(steps)):
        if between is not None:
            between(i, model, twin)
        losses.append(static_step(model, opt, x, t))
        eager_losses.append(step(twin, opt_twin, x, t))
    return static_step, model, twin, losses, eager_losses


def _assert_same(model, twin, losses, eager_losses):
    for p, q in zip(model.params(), twin.params()):
        assert_equal(p.array, q.array)
    for a, b in zip(losses, eager_losses):     # a kept result is not overwritten by later launches
        assert_equal(a.array, b.array)


# NumPy arrays --------------------------------------------------------------------------------
def test_numpy_arrays_replay_on_the_cpu_with_one_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        static_step, model, twin, losses, eager_losses = _run_pair(lambda: optimizers.SGD(lr=0.1), steps=4)
    notes = [w for w in caught if "cuda_graph=True" in str(w.message)]
    assert len(notes) == 1
    assert "NumPy arrays" in str(notes[0].message) and "replays on the CPU as usual" in str(notes[0].message)
    assert type(_replayer(static_step)).__name__ == "Schedule"     # the plain CPU replay, no wrapper
    _assert_same(model, twin, losses, eager_losses)


def test_numpy_arrays_are_not_an_error_in_strict_mode():
    with kusari.using_config("static_graph_strict", True), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _run_pair(lambda: optimizers.SGD(lr=0.1), steps=3)
    assert any("NumPy arrays" in str(w.message) for w in caught)


def test_cuda_graph_must_be_a_bool():
    with pytest.raises(TypeError, match="cuda_graph must be a bool"):
        static_graph(cuda_graph="yes")


# the life of a signature ---------------------------------------------------------------------
@pytest.mark.parametrize("make_optimizer", [lambda: optimizers.SGD(lr=0.1),
                                            lambda: optimizers.MomentumSGD(lr=0.05),
                                            lambda: optimizers.Adam(alpha=0.01)])
def test_whole_step_equals_eager(fake, make_optimizer):
    static_step, model, twin, losses, eager_losses = _run_pair(make_optimizer)
    replayer = _replayer(static_step)
    assert isinstance(replayer, _cuda_graph.CudaGraphReplay)
    # trace, warm-up, capture, then 4 launches of one graph per step
    assert (replayer.state, replayer.captures, replayer.launches) == ("launch", 1, 4)
    assert FakeBackend.current.log.count("capture") == 1
    assert FakeBackend.current.log.count("launch") == 5
    _assert_same(model, twin, losses, eager_losses)


def test_segments_of_a_whole_step(fake):
    static_step, *_ = _run_pair(lambda: optimizers.SGD(lr=0.1), steps=2)
    replayer = _replayer(static_step)
    kinds = [seg.device for seg in replayer._segments]
    assert kinds == [False, True, False]       # cleargrads | forward + backward | gradients, update
    device = replayer._segments[1]
    schedule = replayer.schedule
    assert set(device.copy_in) == set(schedule.input_slots)       # x and t are copied in
    assert set(schedule.out_slots) <= set(device.exports)         # the loss is copied out
    assert len(device.params) == 0                                # filled at capture
    assert len(device.grad_slots) == len(schedule.leaf_sources) == 6


def test_hyperparameter_changes_stay_live(fake):
    def between(i, model, twin):
        for m in (model, twin):
            for p in m.params():
                p.update_rule.hyperparam.lr = 0.1 / (i + 1)
    _, model, twin, losses, eager_losses = _run_pair(lambda: optimizers.SGD(lr=0.1), between=between)
    _assert_same(model, twin, losses, eager_losses)


def test_static_code_between_ops_is_run_and_copied_in(fake):
    calls = []

    @kusari.static_code
    def scale_of(x, model):
        calls.append(model)
        return x.array * 0 + numpy.float32(calls.count(model) % 3 + 1)   # changes from call to call

    def step(model, optimizer, x, t):
        h = model(x)
        h = h * scale_of(h, model)
        kusari.report({"loss_before": F.sum(h)})
        loss = F.softmax_cross_entropy(h, t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        return loss

    static_step, model, twin, losses, eager_losses = _run_pair(lambda: optimizers.SGD(lr=0.1), step=step)
    replayer = _replayer(static_step)
    # model | scale_of | product, sum | report | loss, backward (cleargrads moved ahead) | gradients, update
    assert [seg.device for seg in replayer._segments] == [True, False, True, False, True, False]
    assert replayer.state == "launch"
    # twice per step (static and eager), every step
    assert len(calls) == 14
    _assert_same(model, twin, losses, eager_losses)


def test_host_steps_and_results_get_the_callers_arrays_not_the_graphs_buffers(fake):
    kept = []

    @kusari.static_code
    def keep(x):
        kept.append(x.array if isinstance(x, kusari.Variable) else x)

    def step(model, optimizer, x, t):
        loss = F.softmax_cross_entropy(model(x), t)
        keep(x)                                     # after a graph that read x
        model.cleargrads()
        loss.backward()
        optimizer.update()
        return loss, x

    model = _model()
    opt = optimizers.SGD(lr=0.1).setup(model)
    static_step = static_graph(step, cuda_graph=True)
    batches = _batches(6)
    returned = [static_step(model, opt, x, t)[1] for x, t in batches]
    assert _replayer(static_step).state == "launch"
    for (x, _), got, result in zip(batches, kept, returned):     # a graph's buffer would hold the last x
        assert_equal(numpy.asarray(got), x)
        assert_equal(numpy.asarray(result), x)


def test_reported_values_are_not_overwritten(fake):
    def step(model, optimizer, x, t):
        loss = F.softmax_cross_entropy(model(x), t)
        kusari.report({"loss": loss})
        model.cleargrads()
        loss.backward()
        optimizer.update()

    model = _model()
    opt = optimizers.SGD(lr=0.1).setup(model)
    twin, reported, expected = copy.deepcopy(model), [], []
    opt_twin = optimizers.SGD(lr=0.1).setup(twin)
    static_step = static_graph(step, cuda_graph=True)
    for x, t in _batches(6):
        for fn, m, o, out in ((static_step, model, opt, reported), (step, twin, opt_twin, expected)):
            observation = {}
            with kusari.Reporter().scope(observation):
                fn(m, o, x, t)
            out.append(observation["loss"])
    for a, b in zip(reported, expected):
        assert_equal(kusari.as_array(a), kusari.as_array(b))


def test_forward_only_outputs_and_backward(fake):
    model = _model()
    twin = copy.deepcopy(model)
    forward = static_graph(lambda m, x: m(x), cuda_graph=True)
    outs, eager = [], []
    for x, _ in _batches(6):
        y = forward(model, x)
        y_e = twin(x)
        F.sum(y * y).backward()
        F.sum(y_e * y_e).backward()
        outs.append(y)
        eager.append(y_e)
    assert _replayer(forward).state == "launch"
    for a, b in zip(outs, eager):
        assert_equal(a.array, b.array)
    for p, q in zip(model.params(), twin.params()):
        assert_equal(p.grad, q.grad)          # accumulated over the 6 calls, as eager


# guards: recapture and giving up ----------------------------------------------------------------
def test_a_replaced_parameter_array_is_captured_again(fake):
    def between(i, model, twin):
        if i == 4:
            for m in (model, twin):
                m[0].W.array = m[0].W.array * numpy.float32(0.5)
    static_step, model, twin, losses, eager_losses = _run_pair(lambda: optimizers.SGD(lr=0.1), steps=9,
                                                               between=between)
    replayer = _replayer(static_step)
    # launches at calls 4 (3 is the capture); 5 finds the new W: plain; 6 warm-up; 7 capture; 8, 9 launch
    assert (replayer.state, replayer.captures, replayer.launches) == ("launch", 2, 3)
    _assert_same(model, twin, losses, eager_losses)


def test_a_changed_loss_scale_is_captured_again(fake):
    def between(i, model, twin):
        if i == 4:
            for m in (model, twin):
                m.optimizer.set_loss_scale(8.0)

    def step(model, optimizer, x, t):
        model.optimizer = optimizer
        optimizer.update(lambda x, t: F.softmax_cross_entropy(model(x), t), x, t)

    def make():
        opt = optimizers.SGD(lr=0.1)
        opt.loss_scaling(scale=4.0)
        return opt
    static_step, model, twin, _, _ = _run_pair(make, steps=9, step=step, between=between)
    replayer = _replayer(static_step)
    assert replayer.captures == 2
    _assert_same(model, twin, [], [])


def test_a_changed_input_device_or_shape_from_host_code_is_captured_again(fake):
    sizes = iter([2, 2, 2, 2, 2, 3, 3, 3, 3, 3] * 2)

    @kusari.static_code
    def bias(x):
        return numpy.ones((next(sizes), 1), numpy.float32)[:1] * 0 + x.array[:1, :1] * 0

    def step(model, optimizer, x, t):
        h = model(x)
        h = h + F.broadcast_to(bias(h), h.shape)
        loss = F.softmax_cross_entropy(h, t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        return loss

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        static_step, model, twin, losses, eager_losses = _run_pair(lambda: optimizers.SGD(lr=0.1), step=step)
    _assert_same(model, twin, losses, eager_losses)


def test_a_parameter_replaced_between_two_graphs_of_one_call(fake):
    """The optimizer's hook replaces a parameter's array inside the step, so the check fails at the
    second graph of that call: it and the rest run plainly, reading what the first graph computed."""
    def step(model, optimizer, x, t):
        h = model[0](x)
        loss = F.softmax_cross_entropy(model[2](F.relu(h)), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        return F.sum(h * 2) + F.sum(model[2].W)         # a second graph: h from the first, W afresh

    calls = {}

    def replace_at_5(optimizer):
        calls[optimizer] = calls.get(optimizer, 0) + 1
        if calls[optimizer] == 5:
            optimizer.target[2].W.array = optimizer.target[2].W.array.copy()

    model = _model()
    twin = copy.deepcopy(model)
    opt, opt_twin = optimizers.SGD(lr=0.1).setup(model), optimizers.SGD(lr=0.1).setup(twin)
    for o in (opt, opt_twin):
        o.add_hook(replace_at_5, name="replace", timing="post")
    static_step = static_graph(step, cuda_graph=True)
    losses, eager_losses = [], []
    for x, t in _batches(9):
        losses.append(static_step(model, opt, x, t))
        eager_losses.append(step(twin, opt_twin, x, t))
    replayer = _replayer(static_step)
    # cleargrads | forward, backward | gradients, update (the hook) | the second graph
    assert [seg.device for seg in replayer._segments] == [False, True, False, True]
    assert replayer.captures == 2
    _assert_same(model, twin, losses, eager_losses)


def test_guard_messages_name_what_changed():
    seg = _cuda_graph._Segment.__new__(_cuda_graph._Segment)
    seg.params, seg.backwards, seg.scales = (), [], ()
    buf = numpy.zeros((2, 3), numpy.float32)
    seg.copy_in, seg.copy_now, seg.buffers = (5,), (5,), {5: buf}
    vals = [None] * 6
    vals[5] = numpy.zeros((2, 4), numpy.float32)
    with pytest.raises(_cuda_graph._Stale, match=r"\(2, 3\) float32 on cpu to ndarray \(2, 4\) float32"):
        _cuda_graph.CudaGraphReplay._check(seg, vals)
    vals[5] = numpy.zeros((2, 3), numpy.float64)
    with pytest.raises(_cuda_graph._Stale, match="float64"):
        _cuda_graph.CudaGraphReplay._check(seg, vals)
    vals[5] = numpy.ones((2, 3), numpy.float32)
    _cuda_graph.CudaGraphReplay._check(seg, vals)     # same kind of array: copied in, no recapture


def test_replacing_parameters_at_every_step_gives_up_with_a_warning(fake):
    def between(i, model, twin):
        for m in (model, twin):
            m[2].W.array = m[2].W.array.copy()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        static_step, model, twin, losses, eager_losses = _run_pair(lambda: optimizers.SGD(lr=0.1), steps=16,
                                                                   between=between)
    replayer = _replayer(static_step)
    assert replayer.state == "plain"
    assert replayer.captures == _cuda_graph.MAX_THRASH
    messages = [str(w.message) for w in caught if "cuda_graph=True" in str(w.message)]
    assert len(messages) == 1
    assert "captured again 4 times in a row" in messages[0] and "was replaced" in messages[0]
    _assert_same(model, twin, losses, eager_losses)


# what a capture cannot take --------------------------------------------------------------------
class HostSync(FunctionNode):
    """Doubles x, reading the device on the way (as ``float(x)`` would): a capture refuses it."""

    def forward(self, inputs):
        if FakeBackend.current is not None and FakeBackend.current.capturing:
            raise RuntimeError("the current stream is capturing, so synchronous API calls are not allowed")
        return inputs[0] * numpy.float32(2),

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * numpy.float32(2),


def _syncing_step(model, optimizer, x, t):
    loss = F.softmax_cross_entropy(HostSync().apply((model(x),))[0], t)
    model.cleargrads()
    loss.backward()
    optimizer.update()
    return loss


def test_a_failed_capture_falls_back_with_one_warning(fake):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        static_step, model, twin, losses, eager_losses = _run_pair(lambda: optimizers.SGD(lr=0.1),
                                                                   step=_syncing_step)
    messages = [str(w.message) for w in caught if "cuda_graph=True" in str(w.message)]
    assert len(messages) == 1
    assert "the capture failed (RuntimeError: the current stream is capturing" in messages[0]
    assert _replayer(static_step).state == "plain"
    _assert_same(model, twin, losses, eager_losses)


def test_a_failed_capture_raises_in_strict_mode(fake):
    model = _model()
    opt = optimizers.SGD(lr=0.1).setup(model)
    static_step = static_graph(_syncing_step, cuda_graph=True)
    (x, t), = _batches(1)
    with kusari.using_config("static_graph_strict", True):
        static_step(model, opt, x, t)      # trace
        static_step(model, opt, x, t)      # warm-up
        with pytest.raises(RuntimeError, match="_syncing_step, cuda_graph=True.*the capture failed"):
            static_step(model, opt, x, t)


def test_a_random_op_is_refused(fake):
    def step(model, optimizer, x, t):
        loss = F.softmax_cross_entropy(F.dropout(model(x), 0.5), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()

    model = _model()
    opt = optimizers.SGD(lr=0.1).setup(model)
    (x, t), = _batches(1)
    with pytest.warns(RuntimeWarning, match="Dropout draws random numbers inside its forward"):
        static_step = static_graph(step, cuda_graph=True)
        static_step(model, opt, x, t)
    assert type(_replayer(static_step)).__name__ == "Schedule"
    with kusari.using_config("static_graph_strict", True), pytest.raises(RuntimeError, match="Dropout"):
        static_graph(step, cuda_graph=True)(model, opt, x, t)


def test_an_op_on_host_arrays_is_refused(monkeypatch):
    monkeypatch.setattr(_cuda_graph, "cupy_backend_for", lambda arrays: FakeBackend(host_dtypes={numpy.float64}))

    def step(model, optimizer, x, t):
        loss = F.softmax_cross_entropy(F.cast(F.cast(model(x), numpy.float64), numpy.float32), t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        return loss

    with pytest.warns(RuntimeWarning, match="works on host arrays"):
        static_step, model, twin, losses, eager_losses = _run_pair(lambda: optimizers.SGD(lr=0.1), step=step)
    assert _replayer(static_step).state == "plain"
    assert FakeBackend.current.log.count("capture") == 0
    _assert_same(model, twin, losses, eager_losses)


def test_a_data_dependent_trace_never_reaches_the_capture(fake):
    def step(model, optimizer, x, t):
        y = model(x)
        if float(y.array.sum()) > 0:
            y = y * 2
        loss = F.softmax_cross_entropy(y, t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        return loss

    with pytest.warns(RuntimeWarning, match="read"):
        static_step, model, twin, losses, eager_losses = _run_pair(lambda: optimizers.SGD(lr=0.1), step=step)
    assert FakeBackend.current is None         # no signature was wrapped
    _assert_same(model, twin, losses, eager_losses)


# the CuPy side, against a stand-in cupy module ---------------------------------------------------
class _FakeCupy:
    """The few parts of CuPy that CupyBackend uses: streams (capture, events, a current-stream stack),
    memory pools and the thread's allocator."""

    def __init__(self):
        fake = self
        self.log, self.stack, self.allocator = [], [], None

        class Stream:
            def __init__(self, non_blocking=False, name="side"):
                self.name, self.non_blocking, self.capturing = name, non_blocking, False

            def __enter__(self):
                fake.stack.append(self)
                return self

            def __exit__(self, *exc):
                fake.stack.pop()

            def record(self):
                fake.log.append(f"{self.name}.record")
                return self.name

            def wait_event(self, event):
                fake.log.append(f"{self.name}.wait({event})")

            def begin_capture(self):
                assert self.name != "null", "cannot capture on the default (legacy) stream"
                self.capturing = True
                fake.log.append(f"{self.name}.begin_capture")

            def end_capture(self):
                self.capturing = False
                fake.log.append(f"{self.name}.end_capture")
                return ("graph", self.name)

        class MemoryPool:
            def malloc(self, size):
                raise AssertionError("not called here")

        @contextlib.contextmanager
        def using_allocator(allocator):
            previous, fake.allocator = fake.allocator, allocator
            try:
                yield
            finally:
                fake.allocator = previous

        self.null = Stream(name="null")
        self.cuda = type("cuda", (), {"Stream": Stream, "MemoryPool": MemoryPool,
                                      "using_allocator": staticmethod(using_allocator),
                                      "get_current_stream": staticmethod(
                                          lambda: fake.stack[-1] if fake.stack else fake.null)})


def test_cupy_backend_runs_and_captures_on_a_side_stream_with_its_own_pool():
    cupy = _FakeCupy()
    backend = _cuda_graph.CupyBackend(cupy)
    assert backend.stream.non_blocking and backend.stream.name == "side"
    seen = []

    def work(tag):
        seen.append((tag, cupy.cuda.get_current_stream().name, cupy.allocator == backend.pool.malloc,
                     backend.stream.capturing))

    backend.run(work, "warm")
    graph = backend.capture(work, "capture")
    assert graph == ("graph", "side")
    assert seen == [("warm", "side", True, False), ("capture", "side", True, True)]
    # the side stream waits for the current one, which waits for it afterwards
    assert cupy.log == ["null.record", "side.wait(null)", "side.record", "null.wait(side)",
                        "null.record", "side.wait(null)", "side.begin_capture", "side.end_capture",
                        "side.record", "null.wait(side)"]
    assert cupy.allocator is None and cupy.stack == []
    pool = backend.pool
    backend.reset()
    assert backend.pool is not pool


def test_cupy_backend_ends_a_failed_capture_and_reraises():
    cupy = _FakeCupy()
    backend = _cuda_graph.CupyBackend(cupy)

    def sync():
        raise RuntimeError("the current stream is capturing, so synchronous API calls are not allowed")

    with pytest.raises(RuntimeError, match="current stream is capturing"):
        backend.capture(sync)
    assert not backend.stream.capturing and "side.end_capture" in cupy.log
    assert cupy.allocator is None and cupy.stack == []


def test_no_cupy_backend_for_numpy_arrays():
    assert _cuda_graph.cupy_backend_for([numpy.zeros(2), numpy.ones(3, numpy.int32)]) is None
