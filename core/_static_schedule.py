"""Turning a static_graph trace into a schedule's graph: private nodes, gradient targets, and backward plans."""
import copy
import heapq
import weakref
from typing import NamedTuple

from kusari._static_steps import (Arg, ArraySlot, BackwardStep, Const, Leaf, OpStep, VariableSlot,
                                  structure)
from kusari.backend import is_array
from kusari.variable import Variable, detached_node


class Rewired(NamedTuple):
    """What ``rewire`` works out for a schedule."""
    out_template: object    # the call's result, as a template
    leaves: list            # Leaf per leaf number: where gradients leave the schedule
    out_slots: list         # slots of the outputs linked to the graph
    depth: int              # rank of the deepest output above the deepest leaf
    keep_alive: list        # the private output nodes, which ops reference weakly


def _produced_slot(trace, vn):
    """The slot of ``vn`` if a recorded op created it, else None."""
    creator = vn.creator_node
    op = None if creator is None else trace.ops.get(id(creator))
    if op is not None:
        for j, ref in enumerate(creator.outputs):
            if ref() is vn:
                return op.out_slots[j]
    return None


def rewire(trace, result) -> Rewired:
    """Give the recorded graph of ``trace`` private nodes and work out where each gradient goes.

    Each linked op gets ``indexes`` and ``targets``, each BackwardStep its ``targets`` and ``key``,
    and each op's node is replaced by a copy for replays (the originals still serve the traced
    call's own backward).
    """
    external_slots = {k for k, _ in trace.externals}
    leaf_index = {}             # ("in", position) or ("ext", id(Variable)) -> leaf number
    leaves, leaf_ranks = [], []

    def target(vn):
        slot = _produced_slot(trace, vn)
        if slot is not None:
            return slot
        var = vn._variable()
        if var is None:
            return None
        pos = trace.input_vars.get(id(var))
        if pos is None and trace.slot_of(var._data) not in external_slots:
            return None     # a wrapper of a value computed in the forward: eager drops its grad too
        key = ("in", pos) if pos is not None else ("ext", id(var))
        j = leaf_index.get(key)
        if j is None:
            j = leaf_index[key] = len(leaves)
            leaves.append(Leaf(pos, None) if pos is not None else Leaf(None, var))
            leaf_ranks.append(vn.rank)
        return ~j

    privates = {}               # id(trace VariableNode) -> private VariableNode

    def private(vn, k, rank):
        p = privates.get(id(vn)) if vn is not None else None
        if p is None:
            array = trace.values[k]
            p = detached_node(array.shape, array.dtype, True if vn is None else vn.requires_grad, rank)
            if vn is not None:
                privates[id(vn)] = p
        return p

    keep_alive = []
    ops = [op for op in trace.steps if type(op) is OpStep]
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
        if type(step) is BackwardStep:
            step.targets = tuple([target(vn) for vn in step.out_nodes])
            step.key = tuple([t for t in step.targets if t is not None])
            step.out_nodes = None

    out_slots, out_ranks = [], []

    def out_leaf(obj):
        if isinstance(obj, Variable):
            pos = trace.input_vars.get(id(obj))
            if pos is not None:
                return Arg(pos)
            slot = _produced_slot(trace, obj._node)
            if slot is not None and trace.ops[id(obj._node.creator_node)].linked:
                if slot not in out_slots:
                    out_slots.append(slot)
                    out_ranks.append(obj._node.creator_node.rank)
                return VariableSlot(slot, True)
            slot = trace.slot_of(obj._data)
            if slot is None or slot in external_slots:
                return Const(obj)
            return VariableSlot(slot, obj._requires_grad)
        if is_array(obj):
            slot = trace.slot_of(obj)
            return Const(obj) if slot is None or slot in external_slots else ArraySlot(slot)
        return Const(obj)

    template = structure(result, out_leaf)
    for op in ops:
        op.node = copy.copy(op.node)
    depth = max(out_ranks, default=0) - max(leaf_ranks, default=0)
    return Rewired(template, leaves, out_slots, depth, keep_alive)


def plan_backward(producer: dict, seed_slots) -> list:
    """The linked OpSteps in the order eager backprop pops them when seeded at ``seed_slots`` (by
    rank, then push order), leaving out those with no input to differentiate; ``producer`` maps a
    slot to the linked OpStep that writes it."""
    heap, pushed, plan = [], set(), []

    def schedule(slot):
        op = producer.get(slot)
        if op is not None and id(op) not in pushed:
            pushed.add(id(op))
            heapq.heappush(heap, (-op.node.rank, len(pushed), op))

    for k in seed_slots:
        schedule(k)
    while heap:
        op = heapq.heappop(heap)[2]
        if op.indexes:
            plan.append(op)
        for t in op.targets:
            if t is not None and t >= 0:
                schedule(t)
    return plan
