"""static_graph(cuda_graph=True) on a GPU: captured replays equal eager steps bit for bit (an MLP
784-1000-1000-10 regression step and a DQN-size update), and a capture that meets a host sync (an
op's own, or softmax_cross_entropy's label check) falls back.

Every test here needs CuPy and a CUDA GPU (the gpu marker skips them elsewhere); the decisions
themselves are tested on the CPU in test_cuda_graph.py."""
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

pytestmark = pytest.mark.gpu


def _replayer(fn):
    (entry,) = [e for cache in fn._owned.values() for e in cache.values()] + list(fn._free.values())
    return entry


def _to_gpu(link):
    link.to_device("@cupy:0")
    return link


def _assert_same_params(a, b):
    for (name, p), (_, q) in zip(sorted(a.namedparams()), sorted(b.namedparams())):
        numpy.testing.assert_array_equal(p.array.get(), q.array.get(), err_msg=name)


def test_cupy_backend_captures_and_launches():
    import cupy
    backend = _cuda_graph.CupyBackend(cupy)
    x = cupy.arange(6, dtype=cupy.float32)
    out = {}

    def work():
        out["y"] = x * 2 + 1

    backend.run(work)
    graph = backend.capture(work)
    y = out["y"]
    x[...] = cupy.full(6, 10, cupy.float32)
    backend.launch(graph)
    numpy.testing.assert_array_equal(y.get(), numpy.full(6, 21, numpy.float32))


def _regression_step(model, optimizer, x, y):
    loss = F.mean_squared_error(model(x), y)
    model.cleargrads()
    loss.backward()
    optimizer.update()
    return loss


def _classifier_step(model, optimizer, x, t):
    loss = F.softmax_cross_entropy(model(x), t)
    model.cleargrads()
    loss.backward()
    optimizer.update()
    return loss


def _mlp_pair(make_optimizer):
    numpy.random.seed(0)
    model = _to_gpu(kusari.Sequential(L.Linear(784, 1000), F.relu, L.Linear(1000, 1000), F.relu,
                                      L.Linear(1000, 10)))
    twin = copy.deepcopy(model)
    return model, twin, make_optimizer().setup(model), make_optimizer().setup(twin)


@pytest.mark.parametrize("make_optimizer", [lambda: optimizers.MomentumSGD(lr=0.05),
                                            lambda: optimizers.Adam(alpha=1e-3)])
def test_mlp_step_equals_eager(make_optimizer):
    import cupy
    model, twin, opt, opt_twin = _mlp_pair(make_optimizer)
    step = static_graph(_regression_step, cuda_graph=True)
    rng = numpy.random.default_rng(1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # a fallback would warn: make it a failure
        for _ in range(8):
            x = cupy.asarray(rng.standard_normal((100, 784), dtype=numpy.float32))
            y = cupy.asarray(rng.standard_normal((100, 10), dtype=numpy.float32))
            loss = step(model, opt, x, y)
            loss_twin = _regression_step(twin, opt_twin, x, y)
            numpy.testing.assert_array_equal(loss.array.get(), loss_twin.array.get())
    replayer = _replayer(step)
    assert (replayer.state, replayer.captures, replayer.launches) == ("launch", 1, 5)
    _assert_same_params(model, twin)


def test_softmax_cross_entropy_reads_its_labels_so_the_step_falls_back():
    """Its label check (``int(t.min())``, kusari.functions.loss._common.check_label_range) reads the
    device: the capture fails, the step replays plainly with one warning, and stays eager's."""
    import cupy
    model, twin, opt, opt_twin = _mlp_pair(lambda: optimizers.MomentumSGD(lr=0.05))
    step = static_graph(_classifier_step, cuda_graph=True)
    rng = numpy.random.default_rng(1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(5):
            x = cupy.asarray(rng.standard_normal((100, 784), dtype=numpy.float32))
            t = cupy.asarray(rng.integers(0, 10, 100).astype(numpy.int32))
            loss = step(model, opt, x, t)
            numpy.testing.assert_array_equal(loss.array.get(), _classifier_step(twin, opt_twin, x, t).array.get())
    messages = [str(w.message) for w in caught if "cuda_graph=True" in str(w.message)]
    assert len(messages) == 1 and "the capture failed" in messages[0]
    assert _replayer(step).state == "plain"
    _assert_same_params(model, twin)


GAMMA = 0.99


def _dqn_update(q_function, target, optimizer, obs, action, reward, next_obs, not_done):
    """A DQN update on a batch, in kusari ops only (no Python read of the data)."""
    with kusari.no_backprop_mode():
        next_q = F.max(target(next_obs), axis=1)
    y = next_q * not_done * GAMMA + reward     # ops, Variable first: recomputed from each call's arrays
    loss = F.mean_squared_error(F.select_item(q_function(obs), action), y)
    q_function.cleargrads()
    loss.backward()
    optimizer.update()
    return loss


def test_dqn_size_update_equals_eager():
    import cupy
    numpy.random.seed(0)
    q = _to_gpu(kusari.Sequential(L.Linear(4, 256), F.relu, L.Linear(256, 256), F.relu, L.Linear(256, 2)))
    target = copy.deepcopy(q)
    q_twin, target_twin = copy.deepcopy(q), copy.deepcopy(q)
    opt, opt_twin = optimizers.Adam().setup(q), optimizers.Adam().setup(q_twin)
    update = static_graph(_dqn_update, cuda_graph=True)
    rng = numpy.random.default_rng(2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for i in range(10):
            batch = (cupy.asarray(rng.standard_normal((64, 4), dtype=numpy.float32)),
                     cupy.asarray(rng.integers(0, 2, 64).astype(numpy.int32)),
                     cupy.asarray(rng.standard_normal(64, dtype=numpy.float32)),
                     cupy.asarray(rng.standard_normal((64, 4), dtype=numpy.float32)),
                     cupy.asarray((rng.random(64) > 0.1).astype(numpy.float32)))
            if i == 6:      # a target sync replaces nothing: copyparams copies in place
                target.copyparams(q)
                target_twin.copyparams(q_twin)
            loss = update(q, target, opt, *batch)
            loss_twin = _dqn_update(q_twin, target_twin, opt_twin, *batch)
            numpy.testing.assert_array_equal(loss.array.get(), loss_twin.array.get())
    replayer = _replayer(update)
    assert replayer.state == "launch" and replayer.captures == 1
    _assert_same_params(q, q_twin)


class CheckedDouble(FunctionNode):
    """2 x, refusing NaN: its forward reads a device value on the host, which a capture cannot take."""

    def forward(self, inputs):
        x, = inputs
        if not bool((x == x).all()):
            raise ValueError("CheckedDouble: x holds NaN")
        return x * 2,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 2,


def test_a_host_sync_in_an_op_falls_back_with_a_warning():
    import cupy

    def step(model, optimizer, x, t):
        loss = F.softmax_cross_entropy(CheckedDouble().apply((model(x),))[0], t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        return loss

    numpy.random.seed(0)
    model = _to_gpu(L.Linear(3, 2))
    twin = copy.deepcopy(model)
    opt, opt_twin = optimizers.SGD(lr=0.1).setup(model), optimizers.SGD(lr=0.1).setup(twin)
    static_step = static_graph(step, cuda_graph=True)
    x, t = cupy.ones((2, 3), cupy.float32), cupy.zeros(2, cupy.int32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(5):
            loss = static_step(model, opt, x, t)
            loss_twin = step(twin, opt_twin, x, t)
            numpy.testing.assert_array_equal(loss.array.get(), loss_twin.array.get())
    messages = [str(w.message) for w in caught if "cuda_graph=True" in str(w.message)]
    assert len(messages) == 1 and "the capture failed" in messages[0]
    assert _replayer(static_step).state == "plain"
    _assert_same_params(model, twin)
    with kusari.using_config("static_graph_strict", True):
        strict_step = static_graph(step, cuda_graph=True)
        strict_step(model, opt, x, t)
        strict_step(model, opt, x, t)
        with pytest.raises(RuntimeError, match="the capture failed"):
            strict_step(model, opt, x, t)
