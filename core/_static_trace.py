"""Recording a static_graph call: the ops applied, the static_code and framework calls, backward and reports, in order."""
from kusari import _backprop
from kusari import reporter as reporter_module
from kusari._static_steps import (ArraySlot, BackwardStep, CallStep, CodeStep, Const, Mapping, OpStep,
                                  VariableSlot, structure)
from kusari._tracing import trace_hook
from kusari.backend import is_array
from kusari.configuration import no_backprop_mode
from kusari.variable import Variable


class Trace:
    """Recording state of one traced call; ``steps`` is what a replay runs.

    Every array seen gets a slot: the call's inputs first, then op outputs and outside values
    (``externals``: Variables such as Parameters, read afresh at every replay) as they appear.
    """

    def __init__(self, inputs):
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
        return slot

    def _slot_of(self, x):
        """The slot holding ``x`` (a Variable or array), registering an outside value if new."""
        array = x._data if isinstance(x, Variable) else x
        slot = self.slot_of_array.get(id(array))
        if slot is None:
            slot = self._new_slot(array)
            self.externals.append((slot, x if isinstance(x, Variable) else Variable(x, requires_grad=False)))
        return slot

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
                slot = self.slot_of_array.get(id(array))
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


def record(func, args, kwargs, inputs):
    """Run ``func(*args, **kwargs)`` eagerly while recording it; returns (its result, the Trace).

    ``inputs``: the Variables and arrays among the arguments, in cache-key order.
    """
    trace = Trace(inputs)
    trace_hook.start(trace)
    try:
        with _RecordingReporter(trace, reporter_module.get_current_reporter()):
            result = func(*args, **kwargs)
    finally:
        trace_hook.stop()
    return result, trace
