"""Reporter: collect named observations (loss, accuracy, ...) during a step; Summary statistics over steps."""
import contextlib
import json
import threading

import numpy

from kusari import backend
from kusari import configuration
from kusari.variable import Variable

_state = threading.local()


def _reporters():
    stack = getattr(_state, "reporters", None)
    if stack is None:
        stack = _state.reporters = []
    return stack


def get_current_reporter():
    """The innermost active Reporter of this thread (None outside any ``reporter.scope``)."""
    stack = _reporters()
    return stack[-1] if stack else None


class Reporter:
    """Maps observed objects (links) to name prefixes and collects values into ``observation``."""

    def __init__(self):
        self._observer_names = {}
        self.observation = {}

    def __enter__(self):
        _reporters().append(self)
        return self

    def __exit__(self, *exc):
        _reporters().pop()

    @contextlib.contextmanager
    def scope(self, observation):
        """Make this reporter current and collect into ``observation`` within the context."""
        old = self.observation
        self.observation = observation
        self.__enter__()
        try:
            yield
        finally:
            self.__exit__(None, None, None)
            self.observation = old

    def add_observer(self, name, observer):
        """Prefix values reported by ``observer`` with ``name/``."""
        self._observer_names[id(observer)] = name

    def add_observers(self, prefix, observers):
        """Register ``(name, observer)`` pairs (e.g. ``link.namedlinks()``) under ``prefix``."""
        for name, observer in observers:
            self._observer_names[id(observer)] = prefix + name

    def report(self, values, observer=None):
        """Record ``values`` (name -> scalar, array or Variable).

        Variables are stored as their arrays (no graph kept alive), unless
        ``config.keep_graph_on_report`` is set, which keeps the Variable with its graph (DumpGraph).
        """
        if observer is not None:
            prefix = self._observer_names.get(id(observer))
            if prefix is None:
                raise KeyError("Reporter.report: the observer is not registered (add_observer first)")
            prefix += "/"
        else:
            prefix = ""
        for key, value in values.items():
            if isinstance(value, Variable) and not configuration.config.keep_graph_on_report:
                value = value._data
            self.observation[prefix + key] = value


def report(values, observer=None):
    """Report ``values`` to the current reporter; a no-op when there is none."""
    current = get_current_reporter()
    if current is not None:
        current.report(values, observer)


@contextlib.contextmanager
def report_scope(observation):
    """Collect reports of the current reporter into ``observation`` within the context."""
    current = get_current_reporter()
    if current is None:
        raise RuntimeError("report_scope: no reporter is active")
    with current.scope(observation):
        yield


def _to_float(value):
    if backend.is_gpu_array(value):
        value = value.get()
    return float(numpy.asarray(value, numpy.float64))


class Summary:
    """Running mean and standard deviation of a scalar series (values may be weighted).

    Values on a GPU are summed on the GPU: adding one does not wait for the device, and the sums
    reach the host only when a statistic is read or the summary is serialized.
    """

    def __init__(self):
        self._x = 0.0
        self._x2 = 0.0
        self._n = 0.0

    def add(self, value, weight=1):
        if backend.is_gpu_array(value):
            value = value.astype("float64")  # stays on the device
        else:
            value = _to_float(value)
        w = weight.astype("float64") if backend.is_gpu_array(weight) else _to_float(weight)
        self._x = self._x + w * value
        self._x2 = self._x2 + w * value * value
        self._n = self._n + w

    def _sums(self):
        return _to_float(self._x), _to_float(self._x2), _to_float(self._n)

    def compute_mean(self):
        x, _, n = self._sums()
        return x / n

    def make_statistics(self):
        """(mean, std) of the values added so far."""
        x, x2, n = self._sums()
        mean = x / n
        var = max(x2 / n - mean * mean, 0.0)
        return mean, var ** 0.5

    def serialize(self, serializer):
        self._x, self._x2, self._n = self._sums()
        self._x = serializer("_x", self._x)
        self._x2 = serializer("_x2", self._x2)
        self._n = serializer("_n", self._n)


class DictSummary:
    """A Summary per key of observation dicts; non-scalar entries are skipped."""

    def __init__(self):
        self._summaries = {}

    def add(self, d):
        for key, value in d.items():
            weight = 1
            if isinstance(value, tuple) and len(value) == 2:
                value, weight = value
            if isinstance(value, Variable):
                value = value._data
            if numpy.isscalar(value) or getattr(value, "size", 0) == 1:
                self._summaries.setdefault(key, Summary()).add(value, weight)

    def compute_mean(self):
        return {key: s.compute_mean() for key, s in self._summaries.items()}

    def make_statistics(self):
        stats = {}
        for key, s in self._summaries.items():
            mean, std = s.make_statistics()
            stats[key] = mean
            stats[key + ".std"] = std
        return stats

    def serialize(self, serializer):
        # the key list goes as JSON so that any key (commas included) survives the round trip
        names = json.loads(str(serializer("_names", json.dumps(list(self._summaries)))))
        if serializer.is_loading:
            self._summaries = {n: Summary() for n in names}
        for name in names:
            self._summaries[name].serialize(serializer[name])
