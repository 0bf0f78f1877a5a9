"""Replaying a static_graph schedule: its forward on a call's arrays, and its backward for the latest replay."""
import weakref

from kusari import _static_codegen, utils
from kusari._static_schedule import plan_backward
from kusari._static_steps import CallStep, OpStep, fill
from kusari.configuration import config
from kusari.function_node import FunctionNode
from kusari.variable import Variable, new_gradient, new_variable


class StaticGraphNode(FunctionNode):
    """Creator of a replayed call's outputs; its backward runs the schedule's backward plan."""

    def __init__(self, schedule, generation):
        self._schedule = schedule
        self._generation = generation

    @property
    def label(self) -> str:
        return f"StaticGraph({self._schedule.name})"

    def forward(self, inputs):
        raise RuntimeError("StaticGraphNode is created by a replay and never applied")

    def backward(self, target_input_indexes, grad_outputs):
        gxs = self.backward_arrays(target_input_indexes,
                                   tuple([None if g is None else g._data for g in grad_outputs]))
        return tuple([None if g is None else new_gradient(g) for g in gxs])

    def backward_arrays(self, target_input_indexes, grad_outputs):
        return self._schedule.backward(self._generation, grad_outputs)


class Schedule:
    """A finished trace: replays the forward, and runs the backward for the latest replay.

    Parameters
    ----------
    name : str
        The traced function's name (for messages and generated code).
    trace : kusari._static_trace.Trace
    rewired : kusari._static_schedule.Rewired
    """

    def __init__(self, name, trace, rewired):
        self.name = name
        self.steps = trace.steps
        self.n_slots = len(trace.values)
        self.input_slots = trace.input_slots
        self.externals = trace.externals
        self.out_template = rewired.out_template
        self.leaf_sources = rewired.leaves
        self.out_slots = rewired.out_slots
        self._keep_alive = rewired.keep_alive
        self.depth = rewired.depth
        self.producer = {k: op for op in self.steps if type(op) is OpStep and op.linked
                         for k in op.out_slots}
        self.plans = {}
        self.generation = 0
        op_follows = False
        for step in reversed(self.steps):
            if type(step) is OpStep:
                op_follows = True
            elif type(step) is CallStep:
                step.refresh = op_follows
        self._forward = _static_codegen.compile_forward(name, self.steps)

    # forward --------------------------------------------------------------------
    def replay(self, inputs):
        """Run the recorded steps on ``inputs`` (the call's Variables and arrays); returns the result."""
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
        return [inputs[position] if variable is None else variable
                for position, variable in self.leaf_sources]

    def _outputs(self, inputs, vals):
        variables = {}
        leaves = self.leaves(inputs) if self.out_slots else ()
        if leaves and config.enable_backprop:
            node = StaticGraphNode(self, self.generation)
            leaf_nodes = tuple([v._node for v in leaves])
            node.inputs = leaf_nodes
            node.rank = max([n.rank for n in leaf_nodes]) + self.depth
            outs = []
            for k in self.out_slots:
                y = new_variable(vals[k], True)
                y._node.set_creator_node(node)
                variables[k] = y
                outs.append(weakref.ref(y._node))
            node.outputs = tuple(outs)
        return fill(self.out_template, vals, inputs, variables)

    # backward -------------------------------------------------------------------
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
        # Slots first, then the leaves backwards: leaf j's gradient is grads[~j].
        n_leaves = len(self.leaf_sources)
        grads = [None] * (self.n_slots + n_leaves)
        for t, g in seeds:
            old = grads[t]
            grads[t] = g if old is None else utils.force_array(old + g)
        run = self.plans.get(key)
        if run is None:
            # A plan runs the same ops at the same shapes every time: its first run checks what
            # each op returns, later runs skip the per-gradient checks (a measurable share of a
            # small model's replayed step).
            plan = plan_backward(self.producer, [t for t in key if t >= 0])
            _static_codegen.compile_backward(self.name, plan, check=True)(grads)
            self.plans[key] = _static_codegen.compile_backward(self.name, plan, check=False)
        else:
            run(grads)
        return tuple([grads[~j] for j in range(n_leaves)])
