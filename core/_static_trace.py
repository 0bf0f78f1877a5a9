"""Recording a static_graph call: the ops applied, the static_code and framework calls, backward and reports, in order."""
import numpy

from kusari import _backprop, _static_guards
from kusari import reporter as reporter_module
from kusari._static_steps import (ArraySlot, BackwardStep, CallStep, CodeStep, Const, Mapping, OpStep,
                                  VariableSlot, structure)
from kusari._tracing import trace_hook
from kusari.backend import is_array
from kusari.configuration import config, no_backprop_mode
from kusari.variable import Variable


def _memory_key(array):
    """What identifies a NumPy array's view of memory (None for other arrays and empty ones)."""
    if not isinstance(array, numpy.ndarray) or not array.size:
        return None
    return (array.__array_interface__["data"][0], array.shape, array.strides, array.dtype.str)


class Trace:
    """Recording state of one traced call; ``steps`` is what a replay runs.

    Every array seen gets a slot: the call's inputs first, then op outputs and outside values
    (``externals``: Variables such as Parameters, read afresh at every replay) as they appear.
    ``data_read`` is the first Python-side read of a traced value's data (``(what, file:line)``),
    or None: a trace with one must not be replayed (see ``_static_guards``).
    """

    def __init__(self, name, inputs):
        self.name = name
        self.data_read = None
        self._external_slots = set()
        self._views = {}            # slot -> its TracedArray view handed to Python code (kept alive)
        self._slot_of_memory = {}   # _memory_key(array) -> slot
        self._aliases = []
        self.steps = []
        self.values = []            # trace-time array of every slot (keeps ids unique during the trace)
        self.slot_of_array = {}     # id(array) -> slot
        self.externals = []         # (slot, Variable): read afresh at every replay
        self.paused = 0
        self.ops = {}               # id(original node) -> OpStep
        self.input_vars = {}        # id(input Variable) -> input position
        self.input_slots = []
        for i, x in enumerate(inputs):
            slot = self._new_slot(x._data if isinstance(x, Variable) else x)
            self.input_slots.append(slot)
            if isinstance(x, Variable):
                self.input_vars[id(x)] = i

    def _new_slot(self, array):
        slot = len(self.values)
        self.values.append(array)
        self.slot_of_array[id(array)] = slot
        key = _memory_key(array)
        if key is not None:
            self._slot_of_memory[key] = slot
        return slot

    def slot_of(self, array):
        """The slot of ``array``, or None; an unseen NumPy array that is exactly a slot's memory (the
        same data, shape, strides and dtype, e.g. ``numpy.asarray`` of a ``TracedArray``) is that slot."""
        slot = self.slot_of_array.get(id(array))
        if slot is None:
            key = _memory_key(array)
            slot = None if key is None else self._slot_of_memory.get(key)
            if slot is not None:
                self.slot_of_array[id(array)] = slot
                self._aliases.append(array)     # keeps its id from being reused during the trace
        return slot

    def _slot_of(self, x):
        """The slot holding ``x`` (a Variable or array), registering an outside value if new."""
        array = x._data if isinstance(x, Variable) else x
        slot = self.slot_of(array)
        if slot is None:
            slot = self._new_slot(array)
            self._external_slots.add(slot)
            self.externals.append((slot, x if isinstance(x, Variable) else Variable(x, requires_grad=False)))
        return slot

    def is_traced(self, array) -> bool:
        """Whether ``array`` is an input of the call or an op's output (not an outside value)."""
        slot = self.slot_of(array)
        return slot is not None and slot not in self._external_slots

    def traced_view(self, array):
        """The ``TracedArray`` view of a traced NumPy ``array``, standing for the same slot."""
        slot = self.slot_of(array)
        view = self._views.get(slot)
        if view is None:
            view = self._views[slot] = array.view(_static_guards.TracedArray)
            self.slot_of_array[id(view)] = slot
        return view

    def note_data_read(self, what: str, site: str) -> None:
        """A traced value's data was read at ``site`` (``file:line``): raise in strict mode, else note it."""
        if config.static_graph_strict:
            raise RuntimeError(_static_guards.message(self.name, site, what))
        if self.data_read is None:
            self.data_read = (what, site)

    def _paused_call(self, func, *args, **kwargs):
        """``func(*args, **kwargs)`` with recording paused: what it does inside is not recorded."""
        self.paused += 1
        try:
            return func(*args, **kwargs)
        finally:
            self.paused -= 1

    def record_op(self, node, xs, in_data):
        """Run ``node.forward(in_data)`` and record it (``xs``: the input Variables)."""
        state = dict(node.__dict__)
        in_slots = tuple([self._slot_of(x) for x in xs])
        outputs = self._paused_call(node.forward, in_data)
        if type(outputs) is tuple:
            outputs = tuple([_static_guards.plain(y) for y in outputs])
            op = OpStep(node, state, in_slots, tuple([self._new_slot(y) for y in outputs]))
            self.steps.append(op)
            self.ops[id(node)] = op
        return outputs

    def _arg_leaf(self, obj):
        if isinstance(obj, Variable):
            return VariableSlot(self._slot_of(obj), False)
        if is_array(obj):
            return ArraySlot(self._slot_of(obj))
        return Const(obj)

    def _result_leaf(self, obj):
        if isinstance(obj, Variable):
            return VariableSlot(self._new_slot(obj._data), False)
        if is_array(obj):
            return ArraySlot(self._new_slot(obj))
        return Const(obj)

    def record_code(self, func, args, kwargs):
        """Call a ``static_code`` function now and at every replay; returns its result."""
        if self.paused:
            with no_backprop_mode():
                return func(*args, **kwargs)
        arg_t, kwarg_t = structure(args, self._arg_leaf), structure(kwargs, self._arg_leaf)
        with no_backprop_mode():
            result = self._paused_call(func, *args, **kwargs)
        self.steps.append(CodeStep(func, arg_t, kwarg_t, structure(result, self._result_leaf)))
        return result

    def record_call(self, method):
        """Call bound ``method()`` now and at every replay (framework calls such as ``cleargrads``)."""
        self._paused_call(method)
        self.steps.append(CallStep(method))

    def record_backward(self, outputs, grad_outputs, retain_grad, enable_double_backprop, loss_scale,
                        loss_scale_source):
        """Run an eager backward now and record it for replay (see ``_backprop.backward_from``)."""
        if retain_grad or enable_double_backprop:
            raise NotImplementedError(
                "static_graph: backward(retain_grad=True) or backward(enable_double_backprop=True) "
                "inside a traced function is not supported; call it outside the decorated function")
        seeds = []
        for g in grad_outputs:
            if g is None:
                seeds.append(None)
            else:
                array = g._data if isinstance(g, Variable) else g
                slot = self.slot_of(array)
                seeds.append(Const(array) if slot is None else ArraySlot(slot))
        self._paused_call(_backprop.backward_from, outputs, grad_outputs, retain_grad,
                          enable_double_backprop, loss_scale)
        self.steps.append(BackwardStep(tuple([y._node for y in outputs]), seeds, loss_scale,
                                       loss_scale_source))

    def record_report(self, values, observer):
        if not self.paused:
            self.steps.append(CodeStep(reporter_module.report, structure((values, observer), self._arg_leaf),
                                       Mapping(()), Const(None)))


class _RecordingReporter(reporter_module.Reporter):
    """Stands in for the current reporter during a trace: records ``report`` calls, then forwards them."""

    def __init__(self, trace, outer):
        super().__init__()
        self._trace = trace
        self._outer = outer
        if outer is not None:
            self._observer_names = outer._observer_names
            self.observation = outer.observation

    def report(self, values, observer=None):
        self._trace.record_report(values, observer)
        if self._outer is not None:
            self._outer.report(values, observer)


def _map_arrays(obj, change):
    """``obj`` with ``change(a)`` for each array ``a`` in it, also inside tuples, lists and dicts."""
    if isinstance(obj, numpy.ndarray):
        return change(obj)
    if type(obj) in (tuple, list):
        return type(obj)([_map_arrays(o, change) for o in obj])
    if type(obj) is dict:
        return {k: _map_arrays(v, change) for k, v in obj.items()}
    return obj


def _with_views(obj, views: dict):
    """``obj`` with each NumPy array in it replaced by its ``TracedArray`` view; ``views`` maps
    ``id(array)`` to the view, so one array gets one view."""
    def view_of(array):
        view = views.get(id(array))
        if view is None:
            view = views[id(array)] = _static_guards.traced_view(array)
        return view
    return _map_arrays(obj, view_of)


def without_views(result):
    """A traced call's result as its caller gets it: ``TracedArray`` views in it are plain arrays."""
    return _map_arrays(result, _static_guards.plain)


def record(name, func, args, kwargs, inputs):
    """Run ``func(*args, **kwargs)`` eagerly while recording it; returns (its result, the Trace).

    ``inputs``: the Variables and arrays among the arguments, in cache-key order. The function
    sees its NumPy arrays as ``TracedArray`` views, so that reading their data is noticed.
    """
    views = {}
    args, kwargs = _with_views(args, views), _with_views(kwargs, views)
    trace = Trace(name, [_with_views(x, views) for x in inputs])
    _static_guards.enable()
    trace_hook.start(trace)
    try:
        with _RecordingReporter(trace, reporter_module.get_current_reporter()):
            result = func(*args, **kwargs)
    finally:
        trace_hook.stop()
        _static_guards.disable()
    return result, trace
