"""static_graph: trace a forward (or a whole train step) once per input signature, then replay it from a flat schedule.

The first call with a given signature (input shapes, dtypes and array types, ``config.train``,
``config.enable_backprop``, the owner's parameters) runs eagerly while every ``FunctionNode``
applied is recorded in order, together with where each of its inputs comes from: an earlier
node's output, an input of the call, or an outside Variable (a Parameter, read afresh at every
call, so optimizer updates are seen). Later calls run the recorded nodes' ``forward`` on arrays
without creating Variables or graph nodes per op, and return outputs whose creator is a single
node; its backward calls the recorded nodes' backward in the order eager backprop would (on
arrays, through ``_backward_arrays``, for ops that offer one), so results and gradients are
bit-identical to eager mode.

A traced function may also run backward, ``Link.cleargrads`` and ``Optimizer.update`` (a whole
train step): these are recorded too, and a replay runs the recorded backward on arrays and calls
the optimizer's update, so one flat schedule covers forward, backward and update.

Python code between ops is not replayed: side effects that must happen every call go into
``@static_code`` functions; ``kusari.report`` calls made during the trace are replayed
automatically with the new values.
"""
import copy
import functools
import heapq
import threading
import types
import weakref

import numpy

from kusari import _backprop, _static_codegen, _tracing, backend, function_node, link, utils
from kusari import reporter as reporter_module
from kusari.configuration import config, no_backprop_mode
from kusari.function_node import FunctionNode
from kusari.link import Link
from kusari.variable import Variable, VariableNode, _new_gradient, _new_variable

_hook_lock = threading.Lock()
_n_tracing = 0


def _current_trace():
    """The trace being recorded on this thread, paused or not (None when none)."""
    return getattr(_tracing.local, "trace", None)


def _record_apply(node, xs, in_data):
    """The ``FunctionNode.apply`` hook installed while any thread traces."""
    trace = _tracing.current()
    if trace is None:
        return node.forward(in_data)
    return trace.record_op(node, xs, in_data)


def _is_array(x) -> bool:
    return isinstance(x, numpy.ndarray) or backend.is_gpu_array(x)


def _dead_ref():
    # The Variable dies at once, so this weak reference reads None, like a freed variable's.
    return weakref.ref(Variable())


def _private_node(shape, dtype, requires_grad, rank):
    """A VariableNode owned by a schedule and by no Variable (backward recreates Variables on it)."""
    node = VariableNode.__new__(VariableNode)
    node._variable = _dead_ref()
    node.creator_node = None
    node.rank = rank
    node.data = None
    node.shape = shape
    node.dtype = dtype
    node.requires_grad = requires_grad
    return node


def _flatten(obj, leaves, fname):
    """Hashable structure of ``obj`` with its Variables and arrays replaced by their signature;
    the Variables and arrays themselves are appended to ``leaves``."""
    if isinstance(obj, Variable):
        leaves.append(obj)
        data = obj._data
        return ("v", type(data), data.shape, data.dtype, obj._requires_grad)
    if _is_array(obj):
        leaves.append(obj)
        return ("a", type(obj), obj.shape, obj.dtype)
    if isinstance(obj, (tuple, list)):
        return (type(obj), tuple([_flatten(o, leaves, fname) for o in obj]))
    if isinstance(obj, dict):
        return (dict, tuple([(k, _flatten(obj[k], leaves, fname)) for k in sorted(obj)]))
    try:
        hash(obj)
    except TypeError:
        raise TypeError(f"static_graph: {fname} got an unhashable argument of type "
                        f"{type(obj).__name__}; pass Variables, arrays, tuples/lists/dicts of them, "
                        "or hashable values (they become part of the cache key)") from None
    return obj


_EMPTY_KWARGS_KEY = _flatten({}, [], "")


def _signature(args, kwargs, leaves, fname):
    """``_flatten((args, kwargs), leaves, fname)``, computed directly when the arguments are plain
    Variables and NumPy arrays (the usual call)."""
    if not kwargs:
        sig = []
        for a in args:
            if isinstance(a, Variable):
                data = a._data
                sig.append(("v", type(data), data.shape, data.dtype, a._requires_grad))
            elif type(a) is numpy.ndarray:
                sig.append(("a", numpy.ndarray, a.shape, a.dtype))
            else:
                break
        else:
            leaves.extend(args)
            return (tuple, ((type(args), tuple(sig)), _EMPTY_KWARGS_KEY))
    return _flatten((args, kwargs), leaves, fname)


class _Op:
    """One recorded FunctionNode: a private instance, its state as constructed, and its slots."""

    __slots__ = ("node", "state", "in_slots", "out_slots", "linked", "indexes", "targets")

    def __init__(self, node, state, in_slots, out_slots):
        self.node = node
        self.state = state
        self.in_slots = in_slots
        self.out_slots = out_slots
        self.linked = False
        self.indexes = ()
        self.targets = ()


class _Code:
    """A recorded ``static_code`` call or ``report``: re-invoked with the replayed values."""

    __slots__ = ("func", "args", "kwargs", "out_template")

    def __init__(self, func, args, kwargs, out_template):
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.out_template = out_template

    def run(self, schedule, vals, inputs):
        args = _fill(self.args, vals)
        kwargs = _fill(self.kwargs, vals)
        with no_backprop_mode():
            result = self.func(*args, **kwargs)
        _scatter(self.out_template, result, vals)


class _Call:
    """A recorded framework method call with no array arguments (``cleargrads``, an optimizer's
    update): called again at every replay. The method is held weakly, so a schedule cached under
    its owning Link does not keep that Link alive."""

    __slots__ = ("method", "refresh")

    def __init__(self, method):
        self.method = weakref.WeakMethod(method)
        self.refresh = False    # set when ops follow: they must see parameters the call replaced

    def run(self, schedule, vals, inputs):
        method = self.method()
        if method is not None:
            method()
        if self.refresh:
            for k, var in schedule.externals:
                vals[k] = var._data


class _Backward:
    """A recorded backward: at replay, backprop on arrays from its outputs' slots through the
    recorded ops and add the leaf gradients into the leaves' ``grad``, as eager backward does."""

    __slots__ = ("out_nodes", "seeds", "loss_scale", "scale_source", "targets", "key")

    def __init__(self, out_nodes, seeds, loss_scale, scale_source):
        self.out_nodes = out_nodes          # the traced outputs' VariableNodes (until the trace is finished)
        self.seeds = seeds                  # per output: None (implicit 1), ("slot", k) or ("const", array)
        self.loss_scale = loss_scale
        # A weak reference to the optimizer whose current loss_scale replaces loss_scale, or None.
        self.scale_source = None if scale_source is None else weakref.ref(scale_source)
        self.targets = ()                   # per output: its slot, ~leaf number, or None
        self.key = ()                       # the targets that are not None

    def run(self, schedule, vals, inputs):
        source = None if self.scale_source is None else self.scale_source()
        scale = self.loss_scale if source is None else source._loss_scale
        leaves = schedule.leaves(inputs)
        seeds = []
        for target, seed in zip(self.targets, self.seeds):
            if target is None:
                continue
            y = vals[target] if target >= 0 else leaves[~target]._data
            gy = None if seed is None else (vals[seed[1]] if seed[0] == "slot" else seed[1])
            seeds.append((target, _backprop.seed_array(y, gy, scale)))
        leaf_grads = schedule.backprop(self.key, seeds)
        done, pending = {}, []
        for var, g in zip(leaves, leaf_grads):
            if g is None:
                continue
            if var._node.creator_node is not None:  # the graph goes on behind this leaf, outside the schedule
                pending.append((var, _new_gradient(g)))
            elif var._grad_var is None and var._requires_grad and scale is None:
                var._grad_var = _new_gradient(g)     # the usual case, after cleargrads
            else:
                done[var._node] = _new_gradient(g)
        if done:
            _backprop.accumulate_leaf_grads(done, scale)
        if pending:
            outer, _ = _backprop._run([v for v, _ in pending], [g for _, g in pending], False, False, None)
            _backprop.accumulate_leaf_grads(outer, scale)


def _structure(obj, leaf):
    """``obj``'s tuple/list/dict nesting with every other value replaced by ``leaf(value)``."""
    if isinstance(obj, (tuple, list)):
        return ("seq", type(obj), tuple([_structure(o, leaf) for o in obj]))
    if isinstance(obj, dict):
        return ("dict", tuple([(k, _structure(v, leaf)) for k, v in obj.items()]))
    return leaf(obj)


def _fill(template, vals):
    """Rebuild a recorded argument structure with this call's arrays."""
    kind = template[0]
    if kind == "slot":
        return vals[template[1]]
    if kind == "vslot":
        return Variable(vals[template[1]], requires_grad=False)
    if kind == "seq":
        items = [_fill(t, vals) for t in template[2]]
        return items if template[1] is list else tuple(items)
    if kind == "dict":
        return {k: _fill(t, vals) for k, t in template[1]}
    return template[1]


def _scatter(template, result, vals):
    """Store the Variables/arrays of a static_code result into their slots."""
    kind = template[0]
    if kind in ("slot", "vslot"):
        vals[template[1]] = result._data if isinstance(result, Variable) else result
    elif kind == "seq":
        for t, r in zip(template[2], result):
            _scatter(t, r, vals)
    elif kind == "dict":
        for k, t in template[1]:
            _scatter(t, result[k], vals)


class _Trace:
    """Recording state of one traced call."""

    def __init__(self, inputs):
        self.steps = []
        self.values = []            # trace-time array of every slot (keeps ids unique during the trace)
        self.slot_of_array = {}     # id(array) -> slot
        self.externals = []         # (slot, Variable): read afresh at every replay
        self.paused = 0
        self.ops = {}               # id(original node) -> _Op
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

    def record_op(self, node, xs, in_data):
        state = dict(node.__dict__)
        in_slots = tuple([self._slot_of(x) for x in xs])
        self.paused += 1
        try:
            outputs = node.forward(in_data)
        finally:
            self.paused -= 1
        if type(outputs) is tuple:
            op = _Op(node, state, in_slots, tuple([self._new_slot(y) for y in outputs]))
            self.steps.append(op)
            self.ops[id(node)] = op
        return outputs

    def _arg_leaf(self, obj):
        if isinstance(obj, Variable):
            return ("vslot", self._slot_of(obj))
        if _is_array(obj):
            return ("slot", self._slot_of(obj))
        return ("const", obj)

    def _result_leaf(self, obj):
        if isinstance(obj, Variable):
            return ("vslot", self._new_slot(obj._data))
        if _is_array(obj):
            return ("slot", self._new_slot(obj))
        return ("const", obj)

    def record_code(self, func, args, kwargs):
        if self.paused:
            with no_backprop_mode():
                return func(*args, **kwargs)
        arg_t, kwarg_t = _structure(args, self._arg_leaf), _structure(kwargs, self._arg_leaf)
        self.paused += 1
        try:
            with no_backprop_mode():
                result = func(*args, **kwargs)
        finally:
            self.paused -= 1
        self.steps.append(_Code(func, arg_t, kwarg_t, _structure(result, self._result_leaf)))
        return result

    def record_call(self, method):
        """Call bound ``method()`` now and at every replay (framework calls such as ``cleargrads``)."""
        self.paused += 1
        try:
            method()
        finally:
            self.paused -= 1
        self.steps.append(_Call(method))

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
                seeds.append(("const", array) if slot is None else ("slot", slot))
        self.paused += 1
        try:
            _backprop.backward_from(outputs, grad_outputs, retain_grad, enable_double_backprop,
                                    loss_scale)
        finally:
            self.paused -= 1
        self.steps.append(_Backward(tuple([y._node for y in outputs]), seeds, loss_scale,
                                    loss_scale_source))

    def record_report(self, values, observer):
        if not self.paused:
            self.steps.append(_Code(reporter_module.report, _structure((values, observer), self._arg_leaf),
                                    ("dict", ()), ("const", None)))


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


class _StaticGraphNode(FunctionNode):
    """Creator of a replayed call's outputs; its backward runs the schedule's backward plan."""

    def __init__(self, schedule, generation):
        self._schedule = schedule
        self._generation = generation

    @property
    def label(self) -> str:
        return f"StaticGraph({self._schedule.name})"

    def forward(self, inputs):
        raise RuntimeError("_StaticGraphNode is created by a replay and never applied")

    def backward(self, target_input_indexes, grad_outputs):
        gxs = self._schedule.backward(self._generation, tuple([None if g is None else g._data
                                                              for g in grad_outputs]))
        return tuple([None if g is None else _new_gradient(g) for g in gxs])

    def _backward_arrays(self, target_input_indexes, grad_outputs):
        return self._schedule.backward(self._generation, grad_outputs)


class _Schedule:
    """A finished trace: replays the forward, and runs the backward for the latest replay."""

    def __init__(self, name, trace, out_template, leaf_sources, out_slots, out_ranks, leaf_ranks,
                 keep_alive):
        self.name = name
        self.steps = trace.steps
        self.n_slots = len(trace.values)
        self.input_slots = trace.input_slots
        self.externals = trace.externals
        self.out_template = out_template
        self.leaf_sources = leaf_sources          # (input position, None) or (None, outside Variable)
        self.out_slots = out_slots                # slots of the outputs linked to the graph
        self._keep_alive = keep_alive             # private output nodes, weakly referenced by ops
        self.depth = max(out_ranks, default=0) - max(leaf_ranks, default=0)
        self.producer = {}
        for op in self.steps:
            if isinstance(op, _Op) and op.linked:
                for k in op.out_slots:
                    self.producer[k] = op
        self.plans = {}
        self.generation = 0
        op_follows = False
        for step in reversed(self.steps):
            if type(step) is _Op:
                op_follows = True
            elif type(step) is _Call:
                step.refresh = op_follows
        self._forward = _static_codegen.compile_forward(name, [
            (step,) if type(step) is not _Op else
            (None, step.node.forward, step.node.__dict__, step.state, step.in_slots, step.out_slots,
             step.node if step.linked else None)
            for step in self.steps])

    # forward --------------------------------------------------------------------
    def replay(self, inputs):
        vals = [None] * self.n_slots
        for k, x in zip(self.input_slots, inputs):
            vals[k] = x._data if isinstance(x, Variable) else x
        for k, var in self.externals:
            vals[k] = var._data
        self._forward(self, vals, inputs)
        self.generation += 1
        return self._outputs(inputs, vals)

    def leaves(self, inputs):
        """The Variables gradients flow to, in ``leaf_sources`` order, for a call with ``inputs``."""
        return [inputs[p] if v is None else v for p, v in self.leaf_sources]

    def _outputs(self, inputs, vals):
        variables = {}
        leaves = self.leaves(inputs) if self.out_slots else ()
        if leaves and config.enable_backprop:
            node = _StaticGraphNode(self, self.generation)
            leaf_nodes = tuple([v._node for v in leaves])
            node.inputs = leaf_nodes
            node.rank = max([n.rank for n in leaf_nodes]) + self.depth
            outs = []
            for k in self.out_slots:
                y = _new_variable(vals[k], True)
                y._node.set_creator_node(node)
                variables[k] = y
                outs.append(weakref.ref(y._node))
            node.outputs = tuple(outs)
        return self._build(self.out_template, inputs, vals, variables)

    def _build(self, t, inputs, vals, variables):
        kind = t[0]
        if kind == "var":
            y = variables.get(t[1])
            if y is None:
                y = variables[t[1]] = Variable(vals[t[1]], requires_grad=t[2])
            return y
        if kind == "array":
            return vals[t[1]]
        if kind == "arg":
            return inputs[t[1]]
        if kind == "seq":
            items = [self._build(s, inputs, vals, variables) for s in t[2]]
            return items if t[1] is list else tuple(items)
        if kind == "dict":
            return {k: self._build(s, inputs, vals, variables) for k, s in t[1]}
        return t[1]

    # backward -------------------------------------------------------------------
    def _plan(self, seed_slots):
        """The linked ops in the order eager backprop pops them when seeded at ``seed_slots`` (by
        rank, then push order), as (array-level backward or None, node, input indexes, output
        slots, gradient targets)."""
        heap, pushed, plan = [], set(), []

        def schedule(slot):
            op = self.producer.get(slot)
            if op is not None and id(op) not in pushed:
                pushed.add(id(op))
                heapq.heappush(heap, (-op.node.rank, len(pushed), op))

        for k in seed_slots:
            schedule(k)
        while heap:
            op = heapq.heappop(heap)[2]
            if op.indexes:
                plan.append((op.node._backward_arrays, op.node, op.indexes, op.out_slots, op.targets))
            for t in op.targets:
                if t is not None and t >= 0:
                    schedule(t)
        return plan

    def backward(self, generation, grad_outputs):
        """Gradient arrays of the leaves (in ``leaf_sources`` order) from the outputs' gradient arrays."""
        if config.enable_backprop:
            raise NotImplementedError(
                f"static_graph({self.name}): double backprop through a replayed static graph is not "
                "supported; run this model with config.use_static_graph=False")
        if generation != self.generation:
            raise RuntimeError(
                f"static_graph({self.name}): backward of an earlier call after the graph was replayed "
                "again; the replay reuses its nodes, so run backward before the next call "
                "(or set config.use_static_graph=False)")
        seeds = tuple([(k, g) for k, g in zip(self.out_slots, grad_outputs) if g is not None])
        return self.backprop(tuple([k for k, _ in seeds]), seeds)

    def backprop(self, key, seeds):
        """Gradient arrays of the leaves from ``seeds``, (target, gradient array) pairs where a
        target is a slot or ~leaf number, through the ops of the latest replay; ``key`` is the
        tuple of the seeds' targets."""
        run = self.plans.get(key)
        if run is None:
            run = self.plans[key] = _static_codegen.compile_backward(
                self.name, self._plan([t for t in key if t >= 0]), _variable_backward)
        # Slots first, then the leaves backwards: leaf j's gradient is grads[~j].
        n_leaves = len(self.leaf_sources)
        grads = [None] * (self.n_slots + n_leaves)
        for t, g in seeds:
            old = grads[t]
            grads[t] = g if old is None else utils.force_array(old + g)
        run(grads)
        return tuple([grads[~j] for j in range(n_leaves)])


def _variable_backward(node, indexes, gys):
    """Gradient arrays for ``indexes`` from gradient arrays ``gys`` through the node's Variable-level
    backward (for ops without an array-level one, or whose array-level one defers)."""
    gxs = node.backward(indexes, tuple([None if g is None else Variable(g, requires_grad=False) for g in gys]))
    if type(gxs) is not tuple:
        gxs = tuple(gxs) if isinstance(gxs, list) else (gxs,)
    if len(gxs) != len(indexes):
        gxs = tuple([gxs[i] for i in indexes])
    return tuple([None if gx is None else gx._data for gx in gxs])


def _produced_slot(trace, vn):
    """The slot of ``vn`` if a recorded op created it, else None."""
    creator = vn.creator_node
    op = None if creator is None else trace.ops.get(id(creator))
    if op is not None:
        for j, ref in enumerate(creator.outputs):
            if ref() is vn:
                return op.out_slots[j]
    return None


def _finish(name, trace, result):
    """Turn a completed trace into a schedule: give the recorded graph private nodes and work out
    where each gradient goes."""
    external_slots = {k for k, _ in trace.externals}
    leaf_index = {}             # ("in", position) or ("ext", id(Variable)) -> leaf number
    leaf_sources, leaf_ranks = [], []

    def target(vn):
        slot = _produced_slot(trace, vn)
        if slot is not None:
            return slot
        var = vn._variable()
        if var is None:
            return None
        pos = trace.input_vars.get(id(var))
        if pos is None and trace.slot_of_array.get(id(var._data)) not in external_slots:
            return None     # a wrapper of a value computed in the forward: eager drops its grad too
        key = ("in", pos) if pos is not None else ("ext", id(var))
        j = leaf_index.get(key)
        if j is None:
            j = leaf_index[key] = len(leaf_sources)
            leaf_sources.append((pos, None) if pos is not None else (None, var))
            leaf_ranks.append(vn.rank)
        return ~j

    privates = {}               # id(trace VariableNode) -> private VariableNode

    def private(vn, k, rank):
        p = privates.get(id(vn)) if vn is not None else None
        if p is None:
            array = trace.values[k]
            p = _private_node(array.shape, array.dtype, True if vn is None else vn.requires_grad, rank)
            if vn is not None:
                privates[id(vn)] = p
        return p

    keep_alive = []
    ops = [op for op in trace.steps if type(op) is _Op]
    for op in ops:
        original = op.node
        if original.inputs is None:
            continue
        op.linked = True
        inputs = original.inputs
        op.indexes = tuple([i for i, vn in enumerate(inputs) if vn.requires_grad])
        op.targets = tuple([target(inputs[i]) for i in op.indexes])
        outs = [private(ref(), k, original.rank + 1) for ref, k in zip(original.outputs, op.out_slots)]
        keep_alive.append(outs)
        op.state.update(inputs=tuple([private(vn, k, vn.rank) for vn, k in zip(inputs, op.in_slots)]),
                        outputs=tuple([weakref.ref(p) for p in outs]), rank=original.rank)

    for step in trace.steps:
        if type(step) is _Backward:
            step.targets = tuple([target(vn) for vn in step.out_nodes])
            step.key = tuple([t for t in step.targets if t is not None])
            step.out_nodes = None

    out_slots, out_ranks = [], []

    def out_leaf(obj):
        if isinstance(obj, Variable):
            pos = trace.input_vars.get(id(obj))
            if pos is not None:
                return ("arg", pos)
            slot = _produced_slot(trace, obj._node)
            if slot is not None and trace.ops[id(obj._node.creator_node)].linked:
                if slot not in out_slots:
                    out_slots.append(slot)
                    out_ranks.append(obj._node.creator_node.rank)
                return ("var", slot, True)
            slot = trace.slot_of_array.get(id(obj._data))
            if slot is None or slot in external_slots:
                return ("const", obj)
            return ("var", slot, obj._requires_grad)
        if _is_array(obj):
            slot = trace.slot_of_array.get(id(obj))
            return ("const", obj) if slot is None or slot in external_slots else ("array", slot)
        return ("const", obj)

    template = _structure(result, out_leaf)
    # Replays run on copies: the originals still serve the traced call's own backward.
    for op in ops:
        op.node = copy.copy(op.node)
    return _Schedule(name, trace, template, leaf_sources, out_slots, out_ranks, leaf_ranks, keep_alive)


def _trace(name, func, args, kwargs, inputs):
    """Run ``func`` eagerly while recording; returns (its result, the schedule)."""
    global _n_tracing
    trace = _Trace(inputs)
    with _hook_lock:
        _n_tracing += 1
        function_node._trace_hook = _record_apply
    _tracing.local.trace = trace
    recorder = _RecordingReporter(trace, reporter_module.get_current_reporter())
    try:
        with recorder:
            result = func(*args, **kwargs)
    finally:
        _tracing.local.trace = None
        with _hook_lock:
            _n_tracing -= 1
            if not _n_tracing:
                function_node._trace_hook = None
    return result, _finish(name, trace, result)


class _StaticGraph:
    """The callable made by ``static_graph``; binds like a method and caches one schedule per key."""

    def __init__(self, func, force_test_define_by_run=False, verbosity_level=0):
        functools.update_wrapper(self, func)
        self._func = func
        self._eager = force_test_define_by_run
        self._verbosity = verbosity_level
        self._owned = weakref.WeakKeyDictionary()   # owner Link -> {key: schedule}
        self._free = {}                              # key -> schedule, for plain functions

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return types.MethodType(self, obj)

    def __call__(self, *args, **kwargs):
        func = self._func
        if self._eager or not config.use_static_graph or config.debug or _current_trace() is not None:
            return func(*args, **kwargs)
        inputs = []
        owner = args[0] if args and isinstance(args[0], Link) else None
        if owner is None:
            # A plain function reaches parameters through closures: any change of structure retraces.
            key = (_signature(args, kwargs, inputs, func.__qualname__), link._structure_version[0])
            cache = self._free
        else:
            key = (_signature(args[1:], kwargs, inputs, func.__qualname__),
                   tuple([id(p) for p in owner.params()]))
            cache = self._owned.get(owner)
            if cache is None:
                cache = self._owned[owner] = {}
        key = (key, config.train, config.enable_backprop)
        schedule = cache.get(key)
        if schedule is not None:
            return schedule.replay(inputs)
        if self._verbosity:
            print(f"static_graph: tracing {func.__qualname__} (train={config.train}, "
                  f"enable_backprop={config.enable_backprop}, {len(inputs)} array inputs)")
        result, cache[key] = _trace(func.__qualname__, func, args, kwargs, inputs)
        return result


def static_graph(*args, force_test_define_by_run: bool = False, minimize_cache_size: bool = True,
                 verbosity_level: int = 0, enable_double_backprop: bool = False):
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
    are replayed automatically. Non-array values computed from data (e.g. ``float(loss.array)``)
    are frozen at their traced value. Run backward before calling the same graph again.
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
    """
    if enable_double_backprop:
        raise NotImplementedError("static_graph: enable_double_backprop=True is not supported; "
                                  "leave the forward undecorated for double backprop")
    if not isinstance(verbosity_level, int):
        raise TypeError(f"static_graph: verbosity_level must be an int, got "
                        f"{type(verbosity_level).__name__}")

    def decorate(func):
        if not callable(func):
            raise TypeError(f"static_graph: expected a function to decorate, got {type(func).__name__}")
        return _StaticGraph(func, force_test_define_by_run, verbosity_level)

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
        trace = _current_trace()
        if trace is None:
            with no_backprop_mode():
                return func(*args, **kwargs)
        return trace.record_code(func, args, kwargs)
    return wrapper
