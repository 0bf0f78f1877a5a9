"""The entries of a static_graph schedule: the recorded steps, and the templates of the values they pass.

A schedule keeps every array of a call in a flat list of *slots*. A template describes a value
(an argument, a result, a seed gradient) with its arrays replaced by slots, so a replay rebuilds
it from the slots of the new call.
"""
import weakref
from typing import Any, NamedTuple

from kusari import _backprop
from kusari.configuration import no_backprop_mode
from kusari.variable import Variable, new_variable


# templates -------------------------------------------------------------------------
class Const(NamedTuple):
    """A value frozen at the trace."""
    value: Any


class ArraySlot(NamedTuple):
    """The array of a slot."""
    slot: int


class VariableSlot(NamedTuple):
    """The array of a slot, as a Variable."""
    slot: int
    requires_grad: bool


class Arg(NamedTuple):
    """An argument of the call itself (an output that is an input)."""
    position: int


class Seq(NamedTuple):
    """A tuple or a list of templates."""
    kind: type
    items: tuple


class Mapping(NamedTuple):
    """A dict: (key, template) pairs."""
    items: tuple


class Leaf(NamedTuple):
    """Where a gradient leaves the schedule: the call's input ``position``, or an outside ``variable``."""
    position: int | None
    variable: Variable | None


def structure(obj, leaf):
    """``obj``'s tuple/list/dict nesting (as Seq/Mapping) with every other value replaced by ``leaf(value)``."""
    if isinstance(obj, (tuple, list)):
        return Seq(type(obj), tuple([structure(o, leaf) for o in obj]))
    if isinstance(obj, dict):
        return Mapping(tuple([(k, structure(v, leaf)) for k, v in obj.items()]))
    return leaf(obj)


def fill(template, vals, inputs=(), variables=None):
    """The value ``template`` describes, from this call's slots ``vals`` and ``inputs``.

    With ``variables`` (a dict), a VariableSlot gives one Variable per slot, shared and kept
    there (the outputs of a call); without it, a fresh Variable each time.
    """
    kind = type(template)
    if kind is ArraySlot:
        return vals[template.slot]
    if kind is VariableSlot:
        if variables is None:
            return Variable(vals[template.slot], requires_grad=template.requires_grad)
        y = variables.get(template.slot)
        if y is None:
            y = variables[template.slot] = Variable(vals[template.slot],
                                                    requires_grad=template.requires_grad)
        return y
    if kind is Seq:
        items = [fill(t, vals, inputs, variables) for t in template.items]
        return items if template.kind is list else tuple(items)
    if kind is Mapping:
        return {k: fill(t, vals, inputs, variables) for k, t in template.items}
    if kind is Arg:
        return inputs[template.position]
    return template.value


def scatter(template, result, vals) -> None:
    """Store the Variables/arrays of ``result`` into the slots ``template`` names."""
    kind = type(template)
    if kind is ArraySlot or kind is VariableSlot:
        vals[template.slot] = result._data if isinstance(result, Variable) else result
    elif kind is Seq:
        for t, r in zip(template.items, result):
            scatter(t, r, vals)
    elif kind is Mapping:
        for k, t in template.items:
            scatter(t, result[k], vals)


# steps -----------------------------------------------------------------------------
class OpStep:
    """One recorded FunctionNode: a private instance, its state as constructed, and its slots.

    ``linked`` ops are in the graph of the call; for them ``indexes`` lists the inputs needing a
    gradient and ``targets`` where each of those gradients goes (a slot, ~leaf number, or None).
    """

    __slots__ = ("node", "state", "in_slots", "out_slots", "linked", "indexes", "targets")

    def __init__(self, node, state, in_slots, out_slots):
        self.node = node
        self.state = state
        self.in_slots = in_slots
        self.out_slots = out_slots
        self.linked = False
        self.indexes = ()
        self.targets = ()


class CodeStep:
    """A recorded ``static_code`` call or ``report``: re-invoked with the replayed values."""

    __slots__ = ("func", "args", "kwargs", "out_template")

    def __init__(self, func, args, kwargs, out_template):
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.out_template = out_template

    def run(self, schedule, vals, inputs) -> None:
        args = fill(self.args, vals)
        kwargs = fill(self.kwargs, vals)
        with no_backprop_mode():
            result = self.func(*args, **kwargs)
        scatter(self.out_template, result, vals)


class CallStep:
    """A recorded framework method call with no array arguments (``cleargrads``, an optimizer's
    update): called again at every replay. The method is held weakly, so a schedule cached under
    its owning Link does not keep that Link alive."""

    __slots__ = ("method", "refresh")

    def __init__(self, method):
        self.method = weakref.WeakMethod(method)
        self.refresh = False    # set when ops follow: they must see parameters the call replaced

    def run(self, schedule, vals, inputs) -> None:
        method = self.method()
        if method is not None:
            method()
        if self.refresh:
            for k, var in schedule.externals:
                vals[k] = var._data


class BackwardStep:
    """A recorded backward: at replay, backprop on arrays from its outputs' slots through the
    recorded ops and add the leaf gradients into the leaves' ``grad``, as eager backward does."""

    __slots__ = ("out_nodes", "seeds", "loss_scale", "scale_source", "targets", "key")

    def __init__(self, out_nodes, seeds, loss_scale, scale_source):
        self.out_nodes = out_nodes          # the traced outputs' VariableNodes (until the trace is finished)
        self.seeds = seeds                  # per output: None (implicit 1), ArraySlot or Const
        self.loss_scale = loss_scale
        # A weak reference to the optimizer whose current loss_scale replaces loss_scale, or None.
        self.scale_source = None if scale_source is None else weakref.ref(scale_source)
        self.targets = ()                   # per output: its slot, ~leaf number, or None
        self.key = ()                       # the targets that are not None

    def run(self, schedule, vals, inputs) -> None:
        scale = self.scale()
        leaves = schedule.leaves(inputs)
        self.deliver(leaves, self.gradients(schedule, vals, leaves, scale), scale)

    def scale(self):
        """This replay's loss scale: the optimizer's current one, else the traced one (None: unscaled)."""
        source = None if self.scale_source is None else self.scale_source()
        return self.loss_scale if source is None else source._loss_scale

    def gradients(self, schedule, vals, leaves, scale) -> tuple:
        """The leaves' gradient arrays (None where none flows), backpropagated from the seeds."""
        seeds = []
        for target, seed in zip(self.targets, self.seeds):
            if target is None:
                continue
            y = vals[target] if target >= 0 else leaves[~target]._data
            gy = None if seed is None else fill(seed, vals)
            seeds.append((target, _backprop.seed_array(y, gy, scale)))
        return schedule.backprop(self.key, seeds)

    def deliver(self, leaves, leaf_grads, scale) -> None:
        """Add ``leaf_grads`` into the ``grad`` of ``leaves``, as eager backward does."""
        done, pending = {}, []
        for var, g in zip(leaves, leaf_grads):
            if g is None:
                continue
            # new_gradient's body, called directly: one Python call less per gradient on every replay
            g = new_variable(g, False, None, None, None)
            if var._node.creator_node is not None:  # the graph goes on behind this leaf, outside the schedule
                pending.append((var, g))
            elif var._grad_var is None and var._requires_grad and scale is None:
                var._grad_var = g                   # the usual case, after cleargrads
            else:
                done[var._node] = g
        if done:
            _backprop.accumulate_leaf_grads(done, scale)
        if pending:
            outer, _ = _backprop.propagate([v for v, _ in pending], [g for _, g in pending], False,
                                           False, None)
            _backprop.accumulate_leaf_grads(outer, scale)
