"""ONNX export: trace one forward call through the recorded FunctionNode applications and write a ModelProto."""
import hashlib
import os
import warnings

import numpy
import onnx
from onnx import helper, numpy_helper

import kusari
from kusari import _static_guards, backend
from kusari._tracing import trace_hook
from kusari.link_hook import LinkHook
from kusari.onnx import opsets
from kusari.onnx.context import Context, ExportError, Graph
from kusari.onnx.converters import find_converter
from kusari.variable import Parameter, Variable


class _LinkPaths(LinkHook):
    """Keeps the stack of links being called, so each traced op knows its link path."""

    name = "kusari.onnx.export"

    def __init__(self, model):
        self.paths = {id(link): path for path, link in model.namedlinks()} if isinstance(model, kusari.Link) else {}
        self.stack = []

    def forward_preprocess(self, args):
        self.stack.append(self.paths.get(id(args.link), type(args.link).__name__))

    def forward_postprocess(self, args):
        self.stack.pop()

    def prefix(self) -> str:
        path = self.stack[-1] if self.stack else "/"
        return path if path.endswith("/") else path + "/"


class _Trace:
    """What ``trace_hook`` needs of a trace besides ``record_op``: framework calls run, backward refused."""

    paused = 0

    def _paused_call(self, func, *args, **kwargs):
        self.paused += 1
        try:
            return func(*args, **kwargs)
        finally:
            self.paused -= 1

    def record_call(self, method):
        self._paused_call(method)

    def record_code(self, func, args, kwargs):
        # static_code's results are constants of the trace, as they are for differentiation
        with kusari.no_backprop_mode():
            return self._paused_call(func, *args, **kwargs)

    def record_backward(self, *args):
        raise ExportError("export: the forward calls backward(); export traces inference only")

    def record_report(self, values, observer):
        pass


class _ShapeProbe(_Trace):
    """A trace on other inputs (dynamic axes one longer, rows rotated): records each op's class, input and
    output shapes, and for each input other than a Parameter its content (``_content``)."""

    def __init__(self):
        self.ops = []

    def record_op(self, node, xs, in_data):
        outputs = self._paused_call(node.forward, in_data)
        if type(outputs) is tuple:
            fills = tuple(None if isinstance(x, Parameter) else _content(a) for x, a in zip(xs, in_data))
            self.ops.append((type(node), tuple(numpy.shape(a) for a in in_data), tuple(y.shape for y in outputs),
                             fills, _scalars(node)))
        return outputs


def _scalars(node):
    """The node's numeric scalar attributes (AddConstant's value, ...), which a data read would change."""
    return {k: v for k, v in vars(node).items()
            if isinstance(v, (int, float, numpy.number)) and not isinstance(v, bool)}


def _content(array):
    """(the one value ``array`` holds throughout or None, a digest of its bytes)."""
    flat = numpy.ascontiguousarray(backend.CpuDevice().send(array)).reshape(-1)
    fill = flat[0].item() if flat.size and (flat == flat[0]).all() else None
    return fill, hashlib.blake2b(flat.tobytes(), digest_size=16).digest()


class _Recorder(_Trace):
    """The trace ``trace_hook`` calls during export: converts each applied op as it runs.

    ``probe``: the ops of a ``_ShapeProbe`` run at other sizes of the dynamic axes (or None): a size
    that differs between the two runs is dynamic.
    """

    def __init__(self, graph, links, model, external, probe=None):
        self.graph = graph
        self.links = links
        self.model = model
        self.param_names = _param_names(model)
        self.external = external
        self.probe = probe
        self.n_ops = 0
        self.data_reads = {}   # site -> message, one warning per site

    def _input_name(self, x, array, prefix, label, probed_shape, probed_content):
        graph = self.graph
        name = graph.name_of(array)
        if name is not None:
            return name
        if isinstance(x, Parameter) and id(array) not in self.param_names:
            self.param_names = _param_names(self.model)   # initialized by this very forward (a lazy link)
        base = self.param_names.get(id(array))
        if base is None:    # an array made during the forward: a constant of this trace
            base = f"{prefix}{label}/const"
        array_cpu = backend.CpuDevice().send(array)
        probed_fill = probed_content[0] if probed_content else None
        if (probed_content and tuple(probed_shape) == array.shape and base.endswith("/const")
                and _content(array_cpu)[1] != probed_content[1]):
            warnings.warn(f"export: an input of {label} (at link path {prefix.rstrip('/') or '/'}) was computed "
                          "in Python from the inputs' data (reading x.array, float(x), ...): the graph keeps the "
                          "example's value", stacklevel=5)
        if probed_shape is not None and tuple(probed_shape) != array.shape:
            # made from the inputs' sizes (zeros for a first state): one value expanded at run time
            flat = array_cpu.reshape(-1)
            ctx = Context(graph, None, [], [array_cpu], [], prefix)
            ctx.label = label
            shape = ctx.runtime_shape(array.shape, probed_shape)
            if flat.size == 0 or (flat != flat[0]).any() or probed_fill != flat[0] or shape is None:
                ctx.unsupported(f"an input of shape {array.shape} made in Python changes with the dynamic axes "
                                "(its values cannot follow them)")
            name = ctx.add("Expand", [graph.add_initializer(flat[:1].reshape(()), base), shape])
        else:
            name = graph.add_initializer(array_cpu, base, constant=not isinstance(x, Parameter))
        graph.name_array(array, name)
        return name

    # the data-read guards of static_graph (kusari._static_guards) ask a watching trace these three
    def is_traced(self, array) -> bool:
        """Whether ``array`` is an input of the call or an op's output (not a parameter or constant)."""
        name = self.graph.name_of(array)
        return name is not None and name not in self.graph.initializer_names

    def traced_view(self, array):
        """The guarded view of a traced NumPy ``array``, standing for the same value."""
        view = array.view(_static_guards.TracedArray)
        self.graph.name_array(view, self.graph.name_of(array))
        return view

    def note_data_read(self, what: str, site: str) -> None:
        """The forward read a traced value's data at ``site``: the graph keeps what it saw (strict: raise)."""
        message = (f"export: the forward read the data of a traced value ({what}) at {site}; the graph keeps "
                   "the value seen with the example inputs. Compute it with kusari.functions ops")
        if kusari.config.static_graph_strict:
            raise ExportError(message)
        if site not in self.data_reads:
            self.data_reads[site] = message
            warnings.warn(message, stacklevel=3)

    def record_op(self, node, xs, in_data):
        label = type(node).__name__
        prefix = self.links.prefix()
        convert = find_converter(node, self.external)
        if convert is None:
            raise ExportError(
                f"export: {label} (at link path {prefix.rstrip('/') or '/'}) has no ONNX converter; "
                f"write one and pass external_converters={{'{label}': convert}} (see docs/onnx.md)")
        outputs = self._paused_call(node.forward, in_data)
        if type(outputs) is not tuple:
            return outputs   # FunctionNode.apply reports it
        outputs = tuple([_static_guards.plain(y) for y in outputs])
        probed = self._probed(node, in_data, outputs)
        inputs = [self._input_name(x, a, prefix, label, *((probed[0][i], probed[2][i]) if probed else (None, None)))
                  for i, (x, a) in enumerate(zip(xs, in_data))]
        ctx = Context(self.graph, node, inputs, in_data, outputs, prefix, probed)
        names = convert(ctx, node)
        names = [names] if isinstance(names, str) else list(names)
        if len(names) != len(outputs):
            raise ExportError(f"export: the converter of {label} (at {prefix}) returned {len(names)} values for "
                              f"{len(outputs)} outputs")
        in_dims = self.graph.dims.get(inputs[0]) if inputs else None
        in_shape = in_data[0].shape if inputs else ()
        for j, (name, y) in enumerate(zip(names, outputs)):
            self.graph.name_array(y, name)
            dims = ctx.out_dims.get(j)
            if dims is None:
                dims = (ctx.probed_dims(j) if ctx.probed is not None
                        else _lined_up(in_dims, in_shape, y.shape))
            self.graph.dims[name] = dims
        return outputs

    def _probed(self, node, in_data, outputs):
        """(input shapes, output shapes) of this op in the probe run, or None."""
        if self.probe is None:
            return None
        i, self.n_ops = self.n_ops, self.n_ops + 1
        if i >= len(self.probe) or self.probe[i][0] is not type(node) or \
                len(self.probe[i][1]) != len(in_data) or len(self.probe[i][2]) != len(outputs):
            warnings.warn("export: at other sizes of the dynamic axes the forward applied other ops (Python "
                          "control flow on shapes or data); the graph follows the example inputs, and sizes "
                          "computed in Python are fixed to theirs from here on", stacklevel=4)
            self.probe = None
            return None
        changed = sorted(k for k, v in _scalars(node).items() if self.probe[i][4].get(k, v) != v)
        if changed:
            warnings.warn(f"export: {type(node).__name__} (at link path {self.links.prefix().rstrip('/') or '/'}) "
                          f"has {', '.join(changed)} computed in Python from the inputs' data or sizes (reading "
                          "x.array, float(x), x.shape, ...): the graph keeps the example's value", stacklevel=4)
        return self.probe[i][1:4]   # (input shapes, output shapes, input contents)


def _lined_up(in_dims, in_shape, shape):
    """``shape`` with input 0's dynamic axes where the sizes match position by position (the default)."""
    if in_dims is None:
        return tuple(shape)
    return tuple(in_dims[i] if i < len(in_dims) and isinstance(in_dims[i], str) and in_shape[i] == s else s
                 for i, s in enumerate(shape))


def _as_inputs(args, input_names):
    """(call args, call kwargs, [(name, array)], call) from ``args``: an array or Variable, a tuple/list, or a
    dict; ``call(values)`` makes the call's (args, kwargs) from other values of the inputs."""
    if isinstance(args, dict):
        items = list(args.items())
        call = lambda values: ((), dict(zip(args.keys(), values)))  # NOQA: E731
    else:
        seq = list(args) if isinstance(args, (tuple, list)) else [args]
        items = [(f"Input_{i}", a) for i, a in enumerate(seq)]
        call = lambda values: (tuple(values), {})  # NOQA: E731
    if input_names is not None:
        if len(input_names) != len(items):
            raise ValueError(f"export: input_names has {len(input_names)} names for {len(items)} inputs")
        items = [(n, a) for n, (_, a) in zip(input_names, items)]
    values, named = [], []
    for name, a in items:
        if isinstance(a, Variable):
            array = a.array
        elif isinstance(a, numpy.ndarray) or backend.is_gpu_array(a):
            array, a = a, Variable(a, requires_grad=False)
        else:
            raise TypeError(f"export: input {name!r} must be a Variable or an array, got {type(a).__name__}")
        values.append(a)
        named.append((name, array))
    call_args, call_kwargs = call(values)
    return call_args, call_kwargs, named, call


def _flatten_outputs(out):
    """The output Variables of a forward, with their default names; TypeError naming anything else."""
    if isinstance(out, Variable):
        return [("Output_0", out)]
    if isinstance(out, (tuple, list)):
        items = [(f"Output_{i}", y) for i, y in enumerate(out)]
    elif isinstance(out, dict):
        items = list(out.items())
    else:
        raise TypeError(f"export: the forward must return a Variable or a tuple, list or dict of Variables, "
                        f"got {type(out).__name__}")
    for name, y in items:
        if not isinstance(y, Variable):
            raise TypeError(f"export: output {name!r} of the forward is a {type(y).__name__}, not a Variable")
    return items


def _dynamic_axes(dynamic_axes):
    """``{value name: {axis: dim name}}`` from onnx-chainer's form (axes as a dict or a list)."""
    result = {}
    for name, axes in (dynamic_axes or {}).items():
        if isinstance(axes, dict):
            result[name] = {int(a): str(d) for a, d in axes.items()}
        else:
            result[name] = {int(a): f"{name}_dim{int(a)}" for a in axes}
    return result


def _param_names(model):
    """``{id(array): path}`` of the model's parameters and array persistents (``/conv1/W``, ``/bn/avg_mean``)."""
    if not isinstance(model, kusari.Link):
        return {}
    names = {id(p.array): path for path, p in model.namedparams() if p.array is not None}
    for path, link in model.namedlinks():
        for attr in link._persistent:
            value = getattr(link, attr, None)
            if isinstance(value, numpy.ndarray) or backend.is_gpu_array(value):
                names[id(value)] = path.rstrip("/") + "/" + attr
    return names


def _value_info(name, array, dims):
    elem = helper.np_dtype_to_tensor_dtype(array.dtype)
    return helper.make_tensor_value_info(name, elem, list(dims))


def export(model, args, filename=None, opset_version=None, input_names=None, output_names=None,
           dynamic_axes=None, train=False, return_named_inout=False, external_converters=None,
           graph_name="Graph"):
    """Trace ``model(*args)`` once and write it as an ONNX model.

    Parameters
    ----------
    model : callable
        a Link (parameters become initializers named by their link paths, ``/conv1/W``) or any
        function of Variables.
    args : array, Variable, tuple/list of them, or dict
        the example inputs (a dict is passed as keyword arguments and names the inputs).
    filename : str, path or file object, optional
        where to write the serialized model.
    opset_version : int, optional
        from 13 to the newest that onnx and onnxruntime both support (``supported_opsets()``); default that newest.
    input_names, output_names : list of str, optional
        value names of the graph's inputs and outputs (default ``Input_i`` / ``Output_i``, or the dict keys).
    dynamic_axes : dict, optional
        ``{value name: {axis: dim name}}`` or ``{value name: [axis, ...]}``: axes of any size, e.g. the batch.
    train : bool
        trace with ``config.train`` set to this.
    return_named_inout : bool
        also return ``(model, {input name: array}, {output name: array})``.
    external_converters : dict, optional
        ``{FunctionNode class or class name: convert(ctx, node)}``, tried before the built-in converters.

    Returns
    -------
    onnx.ModelProto, or (ModelProto, named inputs, named outputs) with ``return_named_inout``.

    Only the path the example inputs take is traced: Python branches on data are frozen.
    """
    opset = opsets.check_opset("export", opset_version)
    call_args, call_kwargs, named_inputs, call = _as_inputs(args, input_names)
    axes = _dynamic_axes(dynamic_axes)
    graph = Graph(opset)
    links = _LinkPaths(model)
    probe = _probe(model, named_inputs, axes, call, train, graph) if any(n in axes for n, _ in named_inputs) else None
    recorder = _Recorder(graph, links, model, external_converters, probe)
    for name, array in named_inputs:
        graph.unique(name)
        graph.name_array(array, name)
        graph.dims[name] = tuple(axes.get(name, {}).get(i, s) for i, s in enumerate(array.shape))
    _static_guards.enable()
    trace_hook.start(recorder)
    try:
        with kusari.using_config("train", train), kusari.no_backprop_mode(), links:
            out = model(*call_args, **call_kwargs)
    finally:
        trace_hook.stop()
        _static_guards.disable()
    outputs = _flatten_outputs(out)
    if output_names is not None:
        if len(output_names) != len(outputs):
            raise ValueError(f"export: output_names has {len(output_names)} names for {len(outputs)} outputs")
        outputs = [(n, y) for n, (_, y) in zip(output_names, outputs)]
    known = [n for n, _ in named_inputs] + [n for n, _ in outputs]
    unknown = sorted(set(axes) - set(known))
    if unknown:
        raise ValueError(f"export: dynamic_axes names {unknown}, which are none of the inputs and outputs {known}")
    model_proto, named_outputs = _build_model(graph, named_inputs, outputs, axes, graph_name)
    if filename is not None:
        data = model_proto.SerializeToString()
        if hasattr(filename, "write"):
            filename.write(data)
        else:
            with open(os.fspath(filename), "wb") as f:
                f.write(data)
    if return_named_inout:
        return model_proto, dict(named_inputs), named_outputs
    return model_proto


# How much longer the probe makes the dynamic axes other than 0, tried in turn while the forward refuses the size
# (a feature pyramid takes heights and widths that are multiples of its coarsest stride, 32 or 64)
_PROBE_STEPS = (1, 2, 4, 8, 16, 32, 64)


def _probe(model, named_inputs, axes, call, train, graph):
    """The ops of a run with the dynamic axes longer and their rows rotated (None if no such run succeeds), recording
    ``graph.dim_sources``: (traced size, probed size) -> (input name, axis, dim name).

    Axis 0 (the batch) grows by one, the other dynamic axes by the first of ``_PROBE_STEPS`` that the forward
    accepts; one step for all of them, since axes named apart are often one batch (two inputs of a model)."""
    for name, array in named_inputs:
        for axis in axes.get(name, {}):
            if axis >= array.ndim:
                raise ValueError(f"export: dynamic_axes gives axis {axis} of {name!r}, which has shape {array.shape}")
    spatial = any(axis > 0 for name, _ in named_inputs for axis in axes.get(name, {}))
    first_error = None
    for step in _PROBE_STEPS if spatial else _PROBE_STEPS[:1]:
        growth = {(name, axis): 1 if axis == 0 else step for name, _ in named_inputs for axis in axes.get(name, {})}
        try:
            ops = _probe_run(model, named_inputs, growth, call, train)
        except Exception as e:   # the model's own error at that size
            first_error = first_error or e
            continue
        for name, array in named_inputs:
            for axis, dim in sorted(axes.get(name, {}).items()):
                n = array.shape[axis]
                graph.dim_sources.setdefault((n, n + growth[name, axis]), (name, axis, dim))
        return ops
    warnings.warn(f"export: the forward fails with the dynamic axes one longer ({type(first_error).__name__}: "
                  f"{first_error}){' and with the axes after the first up to 64 longer' if spatial else ''}; sizes "
                  "computed in Python are fixed to the example inputs'", stacklevel=3)
    return None


def _probe_run(model, named_inputs, growth, call, train):
    """The ops of ``model`` on the inputs with axis ``a`` of input ``name`` ``growth[name, a]`` longer, rows rotated."""
    values = []
    for name, array in named_inputs:
        for (input_name, axis), extra in sorted(growth.items()):
            if input_name != name:
                continue
            n = array.shape[axis]
            xp = backend.get_array_module(array)
            # rows rotated as well: a value the forward reads from the data then differs
            array = xp.take(array, (xp.arange(n + extra) + 1) % max(n, 1), axis=axis)
        values.append(Variable(array, requires_grad=False))
    probe = _ShapeProbe()
    call_args, call_kwargs = call(values)
    trace_hook.start(probe)
    try:
        with kusari.using_config("train", train), kusari.no_backprop_mode():
            model(*call_args, **call_kwargs)
    finally:
        trace_hook.stop()
    return probe.ops


def _build_model(graph, named_inputs, outputs, axes, graph_name):
    """The checked ModelProto, and ``{output name: array}``."""
    producers = {out: node for node in graph.nodes for out in node.output}
    input_names = {n for n, _ in named_inputs}
    output_infos, named_outputs = [], {}
    for name, y in outputs:
        array = backend.CpuDevice().send(y.array)
        value = graph.names.get(id(y.array))
        if value is None:
            raise ExportError(f"export: output {name!r} was not computed by a traced op from the inputs "
                              "(it is a constant or was computed outside kusari.functions)")
        dims = graph.dims.get(value, tuple(array.shape))
        if value in producers and value not in input_names and name not in graph.names.values():
            _rename(graph.nodes, value, name)
            producers[name] = producers.pop(value)
            graph.names[id(y.array)] = name
        else:   # an input, an initializer, or an output named twice: copy it
            graph.nodes.append(helper.make_node("Identity", [value], [name], name=graph.unique(f"{name}/Identity")))
        dims = tuple(axes.get(name, {}).get(i, d) for i, d in enumerate(dims))
        output_infos.append(_value_info(name, array, dims))
        named_outputs[name] = array
    inputs = [_value_info(name, backend.CpuDevice().send(a), graph.dims[name]) for name, a in named_inputs]
    onnx_graph = helper.make_graph(graph.nodes, graph_name, inputs, output_infos, graph.initializers)
    model = opsets.make_model(onnx_graph, graph.opset)
    onnx.checker.check_model(model)
    return model, named_outputs


def _rename(nodes, old, new):
    for node in nodes:
        for field in (node.input, node.output):
            for i, name in enumerate(field):
                if name == old:
                    field[i] = new


def export_testcase(model, args, out_dir, **kwargs):
    """Export ``model`` to ``out_dir/model.onnx`` with ``out_dir/test_data_set_0/input_i.pb`` and ``output_i.pb``.

    The layout of onnx-chainer and of ONNX's backend test data, which ``onnx.backend.test`` style
    runners accept. ``kwargs`` go to ``export``. Returns the ModelProto.
    """
    kwargs["return_named_inout"] = True
    model_proto, inputs, outputs = export(model, args, **kwargs)
    os.makedirs(os.path.join(out_dir, "test_data_set_0"), exist_ok=True)
    with open(os.path.join(out_dir, "model.onnx"), "wb") as f:
        f.write(model_proto.SerializeToString())
    for kind, values in (("input", inputs), ("output", outputs)):
        for i, (name, array) in enumerate(values.items()):
            tensor = numpy_helper.from_array(backend.CpuDevice().send(array), name)
            with open(os.path.join(out_dir, "test_data_set_0", f"{kind}_{i}.pb"), "wb") as f:
                f.write(tensor.SerializeToString())
    return model_proto
