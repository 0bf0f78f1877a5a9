"""static_graph: trace a forward (or a whole train step) once per input signature, then replay it from a flat schedule.

The first call with a given signature (input shapes, dtypes and array types, ``config.train``,
``config.enable_backprop``, the owner's parameters) runs eagerly while every ``FunctionNode``
applied is recorded in order, together with where each of its inputs comes from: an earlier
node's output, an input of the call, or an outside Variable (a Parameter, read afresh at every
call, so optimizer updates are seen). Later calls run the recorded nodes' ``forward`` on arrays
without creating Variables or graph nodes per op, and return outputs whose creator is a single
node; its backward calls the recorded nodes' backward in the order eager backprop would (on
arrays, through ``backward_arrays``, for ops that offer one), so results and gradients are
bit-identical to eager mode.

A traced function may also run backward, ``Link.cleargrads`` and ``Optimizer.update`` (a whole
train step): these are recorded too, and a replay runs the recorded backward on arrays and calls
the optimizer's update, so one flat schedule covers forward, backward and update.

Python code between ops is not replayed: side effects that must happen every call go into
``@static_code`` functions; ``kusari.report`` calls made during the trace are replayed
automatically with the new values.

This module holds the decorator and its cache; the work is done by, in order of use:
``_static_signature`` (the cache key), ``_static_trace`` (recording a call into steps, defined
in ``_static_steps``), ``_static_schedule`` (the recorded graph's private nodes, gradient targets
and backward plans), ``_static_replay`` (running a schedule) and ``_static_codegen`` (the
straight-line code a replay runs).
"""
import functools
import types
import warnings
import weakref

from kusari import _cuda_graph, _static_guards, _static_signature, link
from kusari._static_replay import Schedule
from kusari._static_schedule import rewire
from kusari._static_trace import record, without_views
from kusari._tracing import trace_hook
from kusari.configuration import config, no_backprop_mode
from kusari.link import Link


_DATA_DEPENDENT = object()   # cached in place of a schedule: that key's trace read data, so it runs eagerly


class _StaticGraph:
    """The callable made by ``static_graph``; binds like a method and caches one schedule per key."""

    def __init__(self, func, force_test_define_by_run=False, verbosity_level=0, warn_on_fallback=True,
                 cuda_graph=False):
        functools.update_wrapper(self, func)
        self._func = func
        self._eager = force_test_define_by_run
        self._verbosity = verbosity_level
        self._warn_on_fallback = warn_on_fallback
        self._warned = False
        self._cuda_graph = cuda_graph
        self._cuda_graph_warned = set()             # kinds of CUDA-graph notes already warned about
        self._owned = weakref.WeakKeyDictionary()   # owner Link -> {key: schedule}
        self._free = {}                              # key -> schedule, for plain functions

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return types.MethodType(self, obj)

    def __call__(self, *args, **kwargs):
        func = self._func
        if (self._eager or not config.use_static_graph or config.debug
                or trace_hook.current(include_paused=True) is not None):
            return func(*args, **kwargs)
        inputs = []
        owner = args[0] if args and isinstance(args[0], Link) else None
        if owner is None:
            # A plain function reaches parameters through closures: any change of structure retraces.
            key = (_static_signature.signature(args, kwargs, inputs, func.__qualname__),
                   link.structure_version.get())
            cache = self._free
        else:
            key = (_static_signature.signature(args[1:], kwargs, inputs, func.__qualname__),
                   tuple([id(p) for p in owner.params()]))
            cache = self._owned.get(owner)
            if cache is None:
                cache = self._owned[owner] = {}
        key = (key, config.train, config.enable_backprop)
        schedule = cache.get(key)
        if schedule is not None:
            if schedule is _DATA_DEPENDENT:
                return func(*args, **kwargs)
            return schedule.replay(inputs)
        if self._verbosity:
            print(f"static_graph: tracing {func.__qualname__} (train={config.train}, "
                  f"enable_backprop={config.enable_backprop}, {len(inputs)} array inputs)")
        result, trace = record(func.__qualname__, func, args, kwargs, inputs)
        if trace.data_read is not None:
            cache[key] = _DATA_DEPENDENT
            if self._warn_on_fallback and not self._warned:
                self._warned = True
                what, site = trace.data_read
                warnings.warn(_static_guards.message(func.__qualname__, site, what), RuntimeWarning,
                              stacklevel=2)
        else:
            schedule = Schedule(func.__qualname__, trace, rewire(trace, result))
            if self._cuda_graph:
                schedule = _cuda_graph.wrap(schedule, inputs, self._cuda_graph_note)
            cache[key] = schedule
        return without_views(result)

    def _cuda_graph_note(self, message: str, strict: bool) -> None:
        """Why a signature replays without CUDA graphs: a RuntimeError under ``config.static_graph_strict``
        when ``strict``, else one warning per function and kind (unless ``warn_on_fallback`` is False)."""
        if strict and config.static_graph_strict:
            raise RuntimeError(message)
        if self._warn_on_fallback and strict not in self._cuda_graph_warned:
            self._cuda_graph_warned.add(strict)
            warnings.warn(message, RuntimeWarning, stacklevel=3)


def static_graph(*args, force_test_define_by_run: bool = False, minimize_cache_size: bool = True,
                 verbosity_level: int = 0, enable_double_backprop: bool = False,
                 warn_on_fallback: bool = True, cuda_graph: bool = False):
    """Decorate a Chain's ``forward`` (or a function of Variables/arrays) to trace it once and replay it.

    Usable bare (``@static_graph``) or with options (``@static_graph(verbosity_level=1)``).
    The first call per signature (shapes, dtypes and array types of the Variable/array
    arguments, their ``requires_grad``, other arguments' values, ``config.train``,
    ``config.enable_backprop``, and the owning Link's set of parameters) runs eagerly and is
    traced; later calls replay the recorded ops on the new arrays and the parameters' current
    arrays, and backward runs the recorded backward. Results and gradients equal eager mode.
    ``config.use_static_graph = False`` (or ``config.debug``) runs eagerly.

    A whole train step may be decorated: ``backward()``, ``cleargrads``/``zerograds`` and
    ``optimizer.update`` inside it are recorded too, and a replay runs them (the backward on
    arrays, the update through the optimizer, so hooks, hyperparameters and loss scaling stay live).

    The forward must be the same sequence of ops for a given signature. Python code between ops
    runs only during the trace: wrap per-call side effects in ``@static_code``; ``report`` calls
    are replayed automatically. A trace that reads the data of its inputs or of an op's output on
    the Python side (``x.array``, ``bool(x)``, ``x.item()``, NumPy on an input array: a value a
    replay could not recompute) is never replayed: that signature runs eagerly from then on, with
    one warning per function naming the line that read, or a RuntimeError there when
    ``config.static_graph_strict`` is set. Python state that changes without reading data (a
    call counter) is still frozen: put it in ``@static_code``. Run backward before calling the
    same graph again.
    Gradients are bit-identical to eager mode except when an output is also used inside the
    forward and three or more gradient terms meet there: their summation order may then differ
    in the last bit.

    Parameters
    ----------
    force_test_define_by_run : bool
        Always run eagerly (to compare with static execution).
    minimize_cache_size : bool
        Accepted for Chainer compatibility; schedules hold no preallocated buffers.
    verbosity_level : int
        When >= 1, print a line each time a trace is recorded.
    enable_double_backprop : bool
        Must be False: double backprop through a replay raises NotImplementedError.
    warn_on_fallback : bool
        Warn (once) when a trace read data and the function falls back to eager execution; False
        falls back silently (for library code that decorates a user's network).
    cuda_graph : bool
        On CuPy arrays, capture each signature's replayed ops into CUDA graphs after one warm-up
        replay and launch them at later calls (see ``kusari._cuda_graph`` and docs/static_graph.md);
        what a capture cannot take replays as usual, with one warning (an error under
        ``config.static_graph_strict``). On NumPy arrays the option does not apply: the function
        replays on the CPU as usual, with one warning.
    """
    if enable_double_backprop:
        raise NotImplementedError("static_graph: enable_double_backprop=True is not supported; "
                                  "leave the forward undecorated for double backprop")
    if not isinstance(cuda_graph, bool):
        raise TypeError(f"static_graph: cuda_graph must be a bool, got {type(cuda_graph).__name__}")
    if not isinstance(verbosity_level, int):
        raise TypeError(f"static_graph: verbosity_level must be an int, got "
                        f"{type(verbosity_level).__name__}")

    def decorate(func):
        if not callable(func):
            raise TypeError(f"static_graph: expected a function to decorate, got {type(func).__name__}")
        return _StaticGraph(func, force_test_define_by_run, verbosity_level, warn_on_fallback, cuda_graph)

    if args:
        if len(args) != 1:
            raise TypeError(f"static_graph: takes one function (or only keyword options), got "
                            f"{len(args)} positional arguments")
        return decorate(args[0])
    return decorate


def static_code(func):
    """Mark ``func`` as code that must run at every call of a static graph (e.g. a counter or logging).

    Inside a traced forward the call is recorded and, at each replay, ``func`` is called again
    with the current values of its Variable/array arguments (other arguments as they were at the
    trace). Variables/arrays it returns may feed later ops. ``func`` runs under
    ``no_backprop_mode`` in every mode: its results are constants for differentiation.
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        trace = trace_hook.current(include_paused=True)
        if trace is None:
            with no_backprop_mode():
                return func(*args, **kwargs)
        return trace.record_code(func, args, kwargs)
    return wrapper
