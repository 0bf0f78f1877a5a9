"""The backward engine: walks the graph from outputs to leaves in decreasing rank order."""
import heapq

import numpy

from kusari import _tracing, backend
from kusari.configuration import _UNSET, config
from kusari.utils import force_array
from kusari.variable import Variable, new_gradient, new_variable

_ndarray = numpy.ndarray


def seed_array(y_data, gy_data, loss_scale):
    """The gradient array backward starts from at an output holding ``y_data``: ``gy_data``, or 1
    for a single-element output when it is None, times ``loss_scale`` when given."""
    if gy_data is None:
        if y_data.size != 1:
            raise ValueError(
                f"backward: output of shape {y_data.shape} has no gradient; set its grad first "
                "(an implicit gradient of 1 is used only for single-element outputs)")
        gy_data = backend.get_array_module(y_data).empty_like(y_data)  # ones_like, without its wrapper
        gy_data.fill(1)
    elif gy_data.shape != y_data.shape:
        raise ValueError(f"backward: gradient shape {gy_data.shape} does not match output shape "
                         f"{y_data.shape}")
    if loss_scale is not None:
        xp = backend.get_array_module(gy_data)
        gy_data = xp.asarray(gy_data * gy_data.dtype.type(loss_scale))
    return gy_data


def _seed_grad(y, gy, loss_scale):
    """The Variable backward starts from at ``y`` (see :func:`seed_array`); a given Variable is
    kept as is when no loss scale applies (double backprop differentiates through its graph)."""
    if gy is not None and not isinstance(gy, Variable):
        gy = Variable(gy, requires_grad=False)
    data = seed_array(y._data, None if gy is None else gy._data, loss_scale)
    return gy if gy is not None and data is gy._data else new_variable(data, False)


def _functions_leading_to(outputs, targets):
    """The function nodes behind ``outputs`` from which some node in ``targets`` can be reached."""
    funcs, seen = [], set()
    stack = [y._node.creator_node for y in outputs]
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        funcs.append(f)
        stack.extend(x.creator_node for x in f.inputs)
    relevant = set()
    for f in sorted(funcs, key=lambda f: f.rank):
        if any(x in targets or x.creator_node in relevant for x in f.inputs):
            relevant.add(f)
    return relevant


class _BackpropMode:
    """Sets ``config.enable_backprop`` for the duration of a backward (cheaper than ``using_config``)."""

    __slots__ = ("_value", "_old")

    def __init__(self, value):
        self._value = value

    def __enter__(self):
        self._old = config.__dict__.get("enable_backprop", _UNSET)
        config.enable_backprop = self._value

    def __exit__(self, *exc):
        if self._old is _UNSET:
            del config.enable_backprop
        else:
            config.enable_backprop = self._old


def run_node_backward(node, indexes: tuple, grad_outputs: tuple, arrays: bool, check: bool = True) -> list:
    """Run ``node``'s backward and check what it returns: the one way every engine does so
    (:func:`propagate`, the engine of backward and grad; static_graph replays; ``kusari.testing``).

    With ``arrays`` (no graph of the backward is kept) gradients are arrays in and out: computed by
    ``node.backward`` on node-less Variables wrapping the arrays, whose ops record no graph since
    backprop runs with ``config.enable_backprop`` off, or by ``node.backward_arrays`` for the few
    ops that keep that measured fast path (docs/performance.md) when it does not defer (return
    None). Without ``arrays`` (double backprop) they are Variables in and out, computed by
    ``node.backward``.

    Parameters
    ----------
    node : FunctionNode
        A node of the graph (its ``inputs`` set).
    indexes : tuple of int
        The inputs that need a gradient.
    grad_outputs : tuple of arrays (or Variables, see ``arrays``) or None
        One per output of ``node``, each of that output's shape.
    arrays : bool
    check : bool
        False skips checking the type, shape and dtype of each gradient ``backward_arrays``
        returns (their count is always checked): for a caller that has checked this node at these
        shapes before (a static_graph backward plan, checked at its first run).

    Returns
    -------
    sequence of arrays (or Variables) or None, one per index, each of its input's shape and dtype.

    Raises
    ------
    ValueError
        When the op returns a wrong number of gradients, or one of a wrong shape or dtype.
    TypeError
        When it returns something other than arrays (``backward_arrays``) or Variables (``backward``).
    """
    gxs, given_arrays = node_gradients(node, indexes, grad_outputs, arrays)
    if given_arrays:   # arrays out as they came (no new list: the common case of every backward)
        if check:
            inputs = node.inputs
            for i, gx in zip(indexes, gxs):
                if gx is not None:
                    x = inputs[i]
                    if type(gx) is not _ndarray or gx.shape != x.shape or gx.dtype is not x.dtype:
                        _check_gradient(node, i, x, gx, True)
        return gxs
    inputs = node.inputs
    checked = []
    for i, gx in zip(indexes, gxs):
        if gx is not None:
            x = inputs[i]
            data = gx._data if type(gx) is Variable else gx
            # the common case in one test; _check_gradient tells apart the others (and raises)
            if type(data) is not _ndarray or data.shape != x.shape or data.dtype is not x.dtype:
                data = _check_gradient(node, i, x, gx, False)
            if arrays:
                gx = data
        checked.append(gx)
    return checked


def node_gradients(node, indexes: tuple, grad_outputs: tuple, arrays: bool) -> tuple:
    """``(gxs, given_arrays)``: ``node``'s gradients for ``indexes``, one per index, unchecked, and
    whether ``backward_arrays`` gave them (arrays) rather than ``backward`` (Variables). The compute
    half of :func:`run_node_backward`; :func:`propagate` checks each gradient in its accumulation
    loop instead (one loop over the gradients, not two: 10% of a chain of tracked adds, bench
    add_chain10)."""
    gxs = None
    if arrays:
        backward_arrays = node.backward_arrays
        if backward_arrays is not None:
            gxs = backward_arrays(indexes, grad_outputs)
    given_arrays = gxs is not None
    if not given_arrays:
        if arrays:   # new_gradient's body: node-less Variables
            grad_outputs = tuple([None if g is None else new_variable(g, False, None, None, None)
                                  for g in grad_outputs])
        gxs = node.backward(indexes, grad_outputs)
    if type(gxs) is not tuple or len(gxs) != len(indexes):
        gxs = _requested(node, indexes, gxs, given_arrays)
    return gxs, given_arrays


def _requested(node, indexes, gxs, given_arrays):
    """``gxs`` as a tuple with one gradient per requested input (an op may return one per input)."""
    if type(gxs) is not tuple:
        gxs = tuple(gxs) if isinstance(gxs, list) else (gxs,)
    if len(gxs) != len(indexes):
        inputs = node.inputs
        if len(gxs) != len(inputs):
            raise ValueError(f"{node.label}.{_method(given_arrays)} returned {len(gxs)} gradients "
                             f"for {len(indexes)} requested inputs (of {len(inputs)})")
        gxs = tuple([gxs[i] for i in indexes])
    return gxs


def _check_gradient(node, i, x, gx, given_arrays):
    """The array of gradient ``gx`` for input ``i`` (VariableNode ``x``) of ``node``, or None;
    raises when it is not an array (a Variable for ``backward``) of ``x``'s shape and dtype."""
    if gx is None:
        return None
    if given_arrays:
        if type(gx) is not numpy.ndarray and not backend.is_gpu_array(gx):
            raise TypeError(f"{node.label}.backward_arrays must return arrays or None, "
                            f"got {type(gx).__name__} for input {i}")
        data = gx
    else:
        if type(gx) is not Variable and not isinstance(gx, Variable):
            raise TypeError(f"{node.label}.backward must return Variables or None, "
                            f"got {type(gx).__name__} for input {i}")
        data = gx._data
    if data.shape != x.shape or (data.dtype is not x.dtype and data.dtype != x.dtype):
        raise ValueError(
            f"{node.label}.{_method(given_arrays)} returned a gradient of shape {data.shape} "
            f"and dtype {data.dtype} for input {i} of shape {x.shape} and dtype {x.dtype}")
    return data


def _method(given_arrays):
    return "backward_arrays" if given_arrays else "backward"


def propagate(outputs, seeds, retain_grad, enable_double_backprop, targets):
    """Propagate ``seeds`` (one per output) back; returns the grads of leaf nodes, and of ``targets``
    (internal use: the engine of backward and grad, and static_graph's replayed backward).

    With ``targets``, only functions on a path to a target are run, and only for the inputs on such
    a path (a layer outside it gets no weight gradient). Without double backprop no graph
    of the backward is kept, so the gradients travel as bare arrays (:func:`run_node_backward`);
    the grads returned are Variables either way.
    """
    relevant = None if targets is None else _functions_leading_to(outputs, targets)
    array_path = not enable_double_backprop
    grads = {}
    heap = []
    pushed = set()
    leaves = {}
    found = {}
    counter = 0
    heappush = heapq.heappush
    heappop = heapq.heappop

    for y, gy in zip(outputs, seeds):
        node = y._node
        if array_path:
            gy = gy._data
        old = grads.get(node)
        if old is not None:
            gy = force_array(old + gy) if array_path else old + gy
        grads[node] = gy
        func = node.creator_node
        if func is None:
            leaves[node] = None
        elif func not in pushed and (relevant is None or func in relevant):
            pushed.add(func)
            counter += 1
            heappush(heap, (-func.rank, counter, func))

    with _BackpropMode(enable_double_backprop):
        while heap:
            func = heappop(heap)[2]
            gys = []
            for ref in func.outputs:
                node = ref()
                g = None if node is None else grads.pop(node, None)
                if g is not None:
                    if targets is not None and node in targets:
                        found[node] = g
                    if retain_grad:
                        var = node._variable()
                        if var is not None:
                            var._grad_var = new_gradient(g) if array_path else g
                gys.append(g)
            inputs = func.inputs
            if relevant is None:
                indexes = tuple([i for i, x in enumerate(inputs) if x.requires_grad])
            else:   # only inputs on a path to a target: e.g. no weight gradients of other links
                indexes = tuple([i for i, x in enumerate(inputs) if x.requires_grad
                                 and (x in targets or x.creator_node in relevant)])
            if not indexes:
                continue
            gxs, given_arrays = node_gradients(func, indexes, tuple(gys), array_path)
            for i, gx in zip(indexes, gxs):
                if gx is None:
                    continue
                x = inputs[i]
                data = gx._data if type(gx) is Variable else gx   # run_node_backward's check, fused
                if type(data) is not _ndarray or data.shape != x.shape or data.dtype is not x.dtype:
                    data = _check_gradient(func, i, x, gx, given_arrays)
                if array_path:
                    gx = data
                old = grads.get(x)
                if old is not None:
                    gx = force_array(old + gx) if array_path else old + gx
                grads[x] = gx
                f = x.creator_node
                if f is None:
                    leaves[x] = None
                elif f not in pushed and (relevant is None or f in relevant):
                    pushed.add(f)
                    counter += 1
                    heappush(heap, (-f.rank, counter, f))
    if targets is not None:
        for node in targets:
            if node in grads:
                found[node] = grads[node]
    leaf_grads = {node: grads[node] for node in leaves if node in grads}
    if array_path:
        leaf_grads = _owned(leaf_grads)
        found = _owned(found)
        # new_gradient's body, called directly: one Python call less per gradient on every backward
        leaf_grads = {node: new_variable(g, False, None, None, None) for node, g in leaf_grads.items()}
        found = {node: new_variable(g, False, None, None, None) for node, g in found.items()}
    return leaf_grads, found


def _owned(grads: dict) -> dict:
    """``grads`` ({node: array}) made safe to keep as ``grad`` and to scale in place (as GradientClipping
    and WeightDecay do): an array is copied when it is a broadcast view (sum's gradient of a parameter
    is one, read-only) or shares memory with an array before it (add passes one gradient to both
    of its inputs)."""
    roots = set()
    owned = {}
    for node, g in grads.items():
        root = g
        while root.base is not None:
            root = root.base
        if id(root) in roots or not _writable(g):
            g = g.copy()
        else:
            roots.add(id(root))
        owned[node] = g
    return owned


def _writable(array) -> bool:
    """Whether ``array`` may be written in place: not read-only, and not a broadcast view (an axis of
    stride 0; CuPy arrays have no read-only flag)."""
    if not getattr(array.flags, "writeable", True):
        return False
    return not any(stride == 0 and n > 1 for stride, n in zip(array.strides, array.shape))


def backward_from(outputs, grad_outputs, retain_grad=False, enable_double_backprop=False,
                  loss_scale=None, loss_scale_source=None):
    """Backprop from ``outputs`` and accumulate into the leaf variables' ``grad``.

    ``loss_scale_source`` (an optimizer) is the object whose ``loss_scale`` a ``static_graph``
    replay of this backward reads, since the scale may change between steps.
    """
    trace = _tracing.trace_hook.current()
    if trace is not None:
        trace.record_backward(outputs, grad_outputs, retain_grad, enable_double_backprop, loss_scale,
                              loss_scale_source)
        return
    seeds = [_seed_grad(y, g, loss_scale) for y, g in zip(outputs, grad_outputs)]
    leaf_grads, _ = propagate(outputs, seeds, retain_grad, enable_double_backprop, None)
    accumulate_leaf_grads(leaf_grads, loss_scale, enable_double_backprop)


def accumulate_leaf_grads(leaf_grads, loss_scale=None, enable_double_backprop=False):
    """Add each gradient Variable of ``leaf_grads`` ({VariableNode: Variable}) into its leaf's ``grad``."""
    for node, g in leaf_grads.items():
        var = node._variable()
        if var is None or not var._requires_grad:
            continue
        if var._grad_var is None:
            var._grad_var = g
        else:
            with _BackpropMode(enable_double_backprop):
                var._grad_var = var._grad_var + g
        if loss_scale is not None:
            var._loss_scale = loss_scale


def backward(outputs, grad_outputs=None, *, retain_grad=False, enable_double_backprop=False,
             loss_scale=None) -> None:
    """Backprop from several outputs at once (``kusari.backward``).

    ``grad_outputs`` defaults to each output's ``grad_var`` (or 1 for a single-element output).
    """
    outputs = list(outputs)
    for y in outputs:
        if not isinstance(y, Variable):
            raise TypeError(f"backward: outputs must be Variables, got {type(y).__name__}")
    if grad_outputs is None:
        grad_outputs = [y._grad_var for y in outputs]
    grad_outputs = list(grad_outputs)
    if len(grad_outputs) != len(outputs):
        raise ValueError(f"backward: {len(outputs)} outputs but {len(grad_outputs)} grad_outputs")
    backward_from(outputs, grad_outputs, retain_grad, enable_double_backprop, loss_scale)


def grad(outputs, inputs, grad_outputs=None, grad_inputs=None, set_grad=False,
         retain_grad=False, enable_double_backprop=False, loss_scale=None):
    """Gradients of ``outputs`` with respect to ``inputs`` without touching other variables' grads.

    Returns a list of Variables (None where an input does not influence the outputs).
    """
    if _tracing.trace_hook.current() is not None:
        raise NotImplementedError("grad: not supported inside a static_graph trace; call it outside "
                                  "the decorated function, or use backward()")
    outputs = list(outputs)
    inputs = list(inputs)
    for v in outputs + inputs:
        if not isinstance(v, Variable):
            raise TypeError(f"grad: outputs and inputs must be Variables, got {type(v).__name__}")
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    seeds = [_seed_grad(y, g, loss_scale) for y, g in zip(outputs, grad_outputs)]
    targets = {x._node for x in inputs}
    _, found = propagate(outputs, seeds, retain_grad, enable_double_backprop, targets)
    result = []
    with _BackpropMode(enable_double_backprop):
        for k, x in enumerate(inputs):
            g = found.get(x._node)
            if grad_inputs is not None and grad_inputs[k] is not None:
                gi = grad_inputs[k]
                gi = gi if isinstance(gi, Variable) else Variable(gi, requires_grad=False)
                g = gi if g is None else g + gi
            result.append(g)
    if set_grad:
        for x, g in zip(inputs, result):
            x._grad_var = g
    return result
