"""check_backward_arrays: prove that an op's array-level backward gives its backward's gradients."""
import copy

import numpy

from kusari import backend
from kusari._backprop import run_node_backward
from kusari.configuration import using_config
from kusari.variable import Variable


def check_backward_arrays(func, inputs: tuple) -> int:
    """Check every op applied by ``func`` that defines ``backward_arrays`` against its ``backward``.

    ``func`` runs once on Variables of ``inputs`` (float ones require a gradient). Then for each
    node of the resulting graph whose op defines ``backward_arrays``, and for every input set the
    engine may ask for (all inputs needing a gradient, and each one alone), random output
    gradients go through ``backward_arrays`` on arrays (as backprop runs it) and through
    ``backward`` on Variables with the graph kept (as double backprop runs it), each on its own
    copy of the node. The gradients must be equal bit for bit, dtype included. A call where
    ``backward_arrays`` defers (returns None) compares ``backward`` with itself.

    Parameters
    ----------
    func : callable
        ``func(*variables) -> tuple of Variables``.
    inputs : tuple of arrays
        Any shapes, on one device.

    Returns
    -------
    int
        The number of nodes checked (0 when no op of ``func`` defines ``backward_arrays``).

    Raises
    ------
    AssertionError
        Naming the op, the input set and the input whose gradients differ.
    """
    outputs = func(*[Variable(x.copy(), requires_grad=x.dtype.kind == "f") for x in inputs])
    device = backend.get_device_from_array(inputs[0])
    checked = 0
    for node in _graph_nodes(outputs):
        if node.backward_arrays is None:
            continue
        indexes = tuple([i for i, x in enumerate(node.inputs) if x.requires_grad])
        if not indexes:
            continue
        grad_outputs = _random_grad_outputs(node, device)
        for subset in [indexes] + ([(i,) for i in indexes] if len(indexes) > 1 else []):
            with using_config("enable_backprop", False):
                by_arrays = run_node_backward(copy.copy(node), subset, grad_outputs, True)
            with using_config("enable_backprop", True):
                by_variables = run_node_backward(copy.copy(node), subset, tuple(
                    [None if g is None else Variable(g, requires_grad=False) for g in grad_outputs]), False)
            for i, ga, gv in zip(subset, by_arrays, by_variables):
                where = f"{node.label}: gradient of input {i} (inputs asked: {subset})"
                if ga is None or gv is None:
                    assert ga is None and gv is None, (
                        f"{where}: backward_arrays gives {type(ga).__name__}, backward gives "
                        f"{type(gv).__name__}")
                    continue
                gv = gv.array
                assert ga.dtype == gv.dtype, f"{where}: dtype {ga.dtype} by backward_arrays, {gv.dtype} by backward"
                numpy.testing.assert_array_equal(
                    backend.CpuDevice().send(ga), backend.CpuDevice().send(gv),
                    err_msg=f"{where}: backward_arrays and backward differ")
        checked += 1
    return checked


def _graph_nodes(outputs):
    """The FunctionNodes behind ``outputs``, each once, in a fixed order."""
    order, seen = [], set()
    stack = [y.creator_node for y in reversed(outputs)]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend([x.creator_node for x in reversed(node.inputs)])
    return order


def _random_grad_outputs(node, device):
    """Uniform(-1, 1) gradients on ``device`` for the float outputs of ``node`` still alive, None
    for the others."""
    grads = []
    for ref in node.outputs:
        out = ref()
        if out is None or out.dtype.kind != "f":
            grads.append(None)
        else:
            grads.append(device.send(numpy.random.uniform(-1, 1, out.shape).astype(out.dtype)))
    return tuple(grads)
