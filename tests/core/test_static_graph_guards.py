"""static_graph's data-read guards: a traced function that reads data is never replayed stale."""
import warnings

import kusari
import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import static_code, static_graph
from kusari._static_replay import Schedule
from numpy.testing import assert_array_equal

# Each reads the data of a traced value on the Python side, so a replay would reuse the traced value.
DATA_READS = {
    "float of array": lambda x: x * float(x.array.sum()),
    "int of array": lambda x: x * int(x.array.max() > 1.5),
    "data alias": lambda x: x * x.data.mean(),
    "bool branch": lambda x: x * 2 if bool(F.sum(x) > 3) else x * 3,
    "item of Variable": lambda x: x + F.sum(x).item(),
    "item of array": lambda x: x * x.array.sum().item(),
    "numpy from array": lambda x: x * numpy.exp(x.array),
    "tolist": lambda x: x * sum(x.array.tolist()),
    "element of array": lambda x: x * x.array[0],
    "iteration": lambda x: x * max(x.array),
    "copy of array": lambda x: x * x.array.copy(),
}
NUMPY_INPUT_READS = {
    "method on input": lambda x: F.relu(x) * x.mean(),
    "numpy function on input": lambda x: F.relu(x) * numpy.median(x),
    "float of input element": lambda x: F.relu(x) * float(x[1]),
    "astype of input": lambda x: F.relu(x) * x.astype(numpy.float32),
}


def _inputs():
    return [numpy.array([0.5, 1.0, 2.0], numpy.float32) * (i + 1) for i in range(3)]


def _eager(f, x):
    with kusari.using_config("use_static_graph", False):
        return f(x).array


@pytest.mark.parametrize("name", sorted(DATA_READS))
def test_a_data_read_falls_back_to_eager_with_one_warning(name):
    f = static_graph(DATA_READS[name])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for x in _inputs():
            assert_array_equal(f(kusari.Variable(x)).array, _eager(DATA_READS[name], kusari.Variable(x)))
    messages = [str(w.message) for w in caught if "static_graph" in str(w.message)]
    assert len(messages) == 1, messages
    assert "<lambda>" in messages[0] and __file__ in messages[0] and "static_code" in messages[0]


@pytest.mark.parametrize("name", sorted(NUMPY_INPUT_READS))
def test_numpy_computed_from_an_input_array_falls_back(name):
    f = static_graph(NUMPY_INPUT_READS[name])
    with pytest.warns(RuntimeWarning, match="read the data of a traced value"):
        results = [f(x).array for x in _inputs()]
    for x, got in zip(_inputs(), results):
        assert_array_equal(got, _eager(NUMPY_INPUT_READS[name], x))


@pytest.mark.parametrize("name", sorted(DATA_READS))
def test_strict_mode_raises_where_the_data_is_read(name):
    f = static_graph(DATA_READS[name])
    with kusari.using_config("static_graph_strict", True):
        with pytest.raises(RuntimeError, match=r"read the data of a traced value .* at .*test_static_graph_guards"):
            f(kusari.Variable(_inputs()[0]))


def test_the_warning_names_the_line_that_read():
    def forward(x):
        scale = float(x.array.sum())   # the read
        return x * scale
    line = forward.__code__.co_firstlineno + 1
    with pytest.warns(RuntimeWarning, match=rf"{__file__}:{line}"):
        static_graph(forward)(kusari.Variable(_inputs()[0]))


def test_passing_arrays_on_is_not_a_read_and_replays():
    """An array handed to an op, to static_code, returned or used as a seed is not read in Python."""
    counted = []

    @static_code
    def count(a):
        counted.append(float(a.sum()))

    @static_graph
    def f(x):
        h = F.tanh(x)
        count(h.array)
        return F.sum(h * 2), h.array

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for x in _inputs():
            y, h = f(kusari.Variable(x))
            assert type(h) is numpy.ndarray
            assert_array_equal(h, numpy.tanh(x))
            assert float(y.array) == pytest.approx(2 * numpy.tanh(x).sum())
    assert counted == pytest.approx([numpy.tanh(x).sum() for x in _inputs()])
    assert len(f._free) == 1 and isinstance(next(iter(f._free.values())), Schedule)   # replayed, not eager


def test_static_code_may_read_data():
    seen = []

    @static_code
    def record_mean(x):
        seen.append(float(x.array.mean()))

    @static_graph
    def f(x):
        record_mean(x)
        return x * 2

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for x in _inputs():
            f(kusari.Variable(x))
    assert seen == pytest.approx([x.mean() for x in _inputs()])


class RunningMeanNet(kusari.Chain):
    """Standardizes its input with running statistics kept on the Python side (a common user pattern)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(3, 2, initialW=numpy.full((2, 3), 0.1, numpy.float32))
        self.count = 0
        self.total = numpy.zeros(3, numpy.float32)

    @static_graph
    def forward(self, x):
        self.count += len(x)
        self.total += x.sum(axis=0)
        return F.sum(self.l(x - self.total / self.count))


def test_a_data_dependent_link_method_falls_back_per_link():
    static, eager = RunningMeanNet(), RunningMeanNet()
    rng = numpy.random.default_rng(0)
    with pytest.warns(RuntimeWarning, match="RunningMeanNet.forward"):
        for _ in range(4):
            x = rng.standard_normal((5, 3)).astype(numpy.float32)
            got = static(x).array
            with kusari.using_config("use_static_graph", False):
                want = eager(x).array
            assert_array_equal(got, want)
    assert static.count == eager.count == 20


def test_an_ordinary_network_still_replays_bit_identically():
    model = L.Classifier(kusari.Sequential(L.Linear(4, 8), F.relu, L.Linear(8, 3)))
    reference = model.copy(mode="copy")
    step = static_graph(lambda m, x, t: m(x, t))
    rng = numpy.random.default_rng(1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with kusari.using_config("static_graph_strict", True):
            for _ in range(3):
                x = rng.standard_normal((6, 4)).astype(numpy.float32)
                t = rng.integers(0, 3, 6).astype(numpy.int32)
                model.cleargrads()
                reference.cleargrads()
                loss = step(model, x, t)
                loss.backward()
                with kusari.using_config("use_static_graph", False):
                    want = reference(x, t)
                want.backward()
                assert_array_equal(loss.array, want.array)
                for p, q in zip(model.params(), reference.params()):
                    assert_array_equal(p.grad, q.grad)
    assert len(step._owned[model]) == 1
    assert isinstance(next(iter(step._owned[model].values())), Schedule)   # replayed, not eager
