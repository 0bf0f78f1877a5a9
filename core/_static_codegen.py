"""Straight-line Python generated for a static_graph schedule: its forward program and its backward plans.

A replay through a generic loop pays, per op, for unpacking the step's record, branching on its
kind and looping over its slots. The generated functions do the same work with the slots as
constant indexes and the per-op objects bound as globals, so only the ops' own calls remain.
The source is registered with ``linecache``: tracebacks through it show the generated lines.
"""
import itertools
import linecache

from kusari import utils

_serial = itertools.count()


def _build(name: str, kind: str, lines, env):
    filename = f"<static_graph {name} {kind} #{next(_serial)}>"
    source = "\n".join(lines) + "\n"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), env)
    return env["run"]


def compile_forward(name: str, program):
    """``run(schedule, vals, inputs)`` executing ``program`` on the slot list ``vals``.

    ``program`` entries: ``(step,)`` for a recorded call, run as ``step.run(schedule, vals,
    inputs)``, or ``(None, forward, node_dict, state, in_slots, out_slots, node)`` for an op: its
    node's ``__dict__`` is reset to ``state``, ``forward`` runs on the input slots' arrays, and for a
    linked ``node`` (else None) the inputs and outputs it retains are stored where its backward reads them.
    """
    env = {}
    lines = ["def run(schedule, vals, inputs):"]
    for i, entry in enumerate(program):
        if entry[0] is not None:
            env[f"c{i}"] = entry[0]
            lines.append(f"    c{i}.run(schedule, vals, inputs)")
            continue
        _, forward, node_dict, state, in_slots, out_slots, node = entry
        env[f"f{i}"], env[f"d{i}"], env[f"s{i}"] = forward, node_dict, state
        args = "".join([f"vals[{k}], " for k in in_slots])
        lines += [f"    d{i}.clear()", f"    d{i}.update(s{i})", f"    a = ({args})", f"    o = f{i}(a)"]
        lines += [f"    vals[{k}] = o[{j}]" for j, k in enumerate(out_slots)]
        if node is not None:
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


def compile_backward(name: str, plan, variable_backward):
    """``run(grads)`` running ``plan`` on the gradient list ``grads`` (slots, then leaves backwards).

    ``plan`` entries: ``(backward_arrays or None, node, input indexes, output slots, targets)``. An op
    runs when one of its outputs has a gradient, through ``backward_arrays`` or, when that is None or
    returns None, ``variable_backward(node, indexes, gys)``; each input gradient is added into its
    target (a slot, or ~leaf number: a negative index into ``grads``; None drops it).
    """
    env = {"force_array": utils.force_array, "variable_backward": variable_backward}
    lines = ["def run(grads):"]
    for i, (backward_arrays, node, indexes, out_slots, targets) in enumerate(plan):
        env[f"b{i}"], env[f"n{i}"], env[f"i{i}"] = backward_arrays, node, indexes
        if len(out_slots) == 1:
            k = out_slots[0]
            lines += [f"    g = grads[{k}]", "    if g is not None:", f"        grads[{k}] = None",
                      "        gys = (g,)"]
        else:
            lines += ["    gys = (" + "".join([f"grads[{k}], " for k in out_slots]) + ")",
                      "    if " + " or ".join([f"gys[{j}] is not None" for j in range(len(out_slots))]) + ":"]
            lines += [f"        grads[{k}] = None" for k in out_slots]
        if backward_arrays is None:
            lines.append(f"        gxs = variable_backward(n{i}, i{i}, gys)")
        else:
            lines += [f"        gxs = b{i}(i{i}, gys)", "        if gxs is None:",
                      f"            gxs = variable_backward(n{i}, i{i}, gys)"]
        for j, t in enumerate(targets):
            if t is not None:
                lines += [f"        gx = gxs[{j}]", "        if gx is not None:", f"            old = grads[{t}]",
                          f"            grads[{t}] = gx if old is None else force_array(old + gx)"]
    if len(lines) == 1:
        lines.append("    pass")
    return _build(name, "backward", lines, env)
