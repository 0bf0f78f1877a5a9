"""Straight-line Python generated for a static_graph schedule: its forward program and its backward plans.

A replay through a generic loop pays, per op, for unpacking the step's record, branching on its
kind and looping over its slots. The generated functions do the same work with the slots as
constant indexes and the per-op objects bound as globals, so only the ops' own calls remain.
The source is registered with ``linecache``: tracebacks through it show the generated lines.
"""
import itertools
import linecache

from kusari import _backprop, utils
from kusari._static_steps import OpStep

_serial = itertools.count()


def _build(name: str, kind: str, lines, env):
    filename = f"<static_graph {name} {kind} #{next(_serial)}>"
    source = "\n".join(lines) + "\n"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), env)
    return env["run"]


def compile_forward(name: str, steps):
    """``run(schedule, vals, inputs)`` executing the schedule's ``steps`` on the slot list ``vals``.

    An OpStep's node ``__dict__`` is reset to its recorded state, its ``forward`` runs on the input
    slots' arrays, and for a linked op the inputs and outputs the node retains are stored where
    its backward reads them. Any other step runs as ``step.run(schedule, vals, inputs)``.
    """
    env = {}
    lines = ["def run(schedule, vals, inputs):"]
    for i, step in enumerate(steps):
        if type(step) is not OpStep:
            env[f"c{i}"] = step
            lines.append(f"    c{i}.run(schedule, vals, inputs)")
            continue
        node = step.node
        env[f"f{i}"], env[f"d{i}"], env[f"s{i}"] = node.forward, node.__dict__, step.state
        args = "".join([f"vals[{k}], " for k in step.in_slots])
        lines += [f"    d{i}.clear()", f"    d{i}.update(s{i})", f"    a = ({args})", f"    o = f{i}(a)"]
        lines += [f"    vals[{k}] = o[{j}]" for j, k in enumerate(step.out_slots)]
        if step.linked:
            env[f"n{i}"] = node
            lines += [f"    r = n{i}._input_indexes_to_retain",
                      "    if r is not None:",
                      f"        p = n{i}.inputs",
                      "        for j in r:",
                      "            p[j].data = a[j]",
                      f"    r = n{i}._output_indexes_to_retain",
                      "    if r is not None:",
                      f"        n{i}._retained_output_data = tuple([o[j] for j in r])"]
    if len(lines) == 1:
        lines.append("    pass")
    return _build(name, "forward", lines, env)


def compile_backward(name: str, plan, check: bool):
    """``run(grads)`` running ``plan`` (linked OpSteps) on the gradient list ``grads`` (slots, then
    leaves backwards).

    An op runs when one of its outputs has a gradient; each input gradient is added into its
    target (a slot, or ~leaf number: a negative index into ``grads``; None drops it). With
    ``check`` every op runs through ``run_node_backward`` (the engine's one way to run a backward
    on arrays), which checks each gradient's type, shape and dtype: a schedule runs this variant
    once per plan. Without it, an op's ``backward_arrays`` is called directly, and the helper runs
    only when the op has none, defers (returns None) or returns other than one gradient per index.
    """
    env = {"force_array": utils.force_array, "run_node_backward": _backprop.run_node_backward}
    lines = ["def run(grads):"]
    for i, step in enumerate(plan):
        env[f"n{i}"], env[f"i{i}"] = step.node, step.indexes
        out_slots = step.out_slots
        if len(out_slots) == 1:
            k = out_slots[0]
            lines += [f"    g = grads[{k}]", "    if g is not None:", f"        grads[{k}] = None",
                      "        gys = (g,)"]
        else:
            lines += ["    gys = (" + "".join([f"grads[{k}], " for k in out_slots]) + ")",
                      "    if " + " or ".join([f"gys[{j}] is not None" for j in range(len(out_slots))]) + ":"]
            lines += [f"        grads[{k}] = None" for k in out_slots]
        if check or step.node.backward_arrays is None:
            lines.append(f"        gxs = run_node_backward(n{i}, i{i}, gys, True, {check})")
        else:
            env[f"b{i}"] = step.node.backward_arrays
            lines += [f"        gxs = b{i}(i{i}, gys)",
                      f"        if gxs is None or len(gxs) != {len(step.indexes)}:",
                      f"            gxs = run_node_backward(n{i}, i{i}, gys, True, False)"]
        for j, t in enumerate(step.targets):
            if t is not None:
                lines += [f"        gx = gxs[{j}]", "        if gx is not None:", f"            old = grads[{t}]",
                          f"            grads[{t}] = gx if old is None else force_array(old + gx)"]
    if len(lines) == 1:
        lines.append("    pass")
    return _build(name, "backward", lines, env)
