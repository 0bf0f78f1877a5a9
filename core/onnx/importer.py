"""ONNX import: ``load(path)`` returns a Link that runs the graph with kusari functions, its weights as Parameters."""
import keyword
import os

import numpy
import onnx
from onnx import helper, numpy_helper

import kusari
import kusari.functions as F
from kusari.onnx.context import CONSTANT_DOC
from kusari.variable import Variable

# inputs of these ops that are statistics or settings, never trained
_FROZEN_INPUTS = {"BatchNormalization": (3, 4), "Clip": (1, 2), "Reshape": (1,), "Expand": (1,), "Slice": (1, 2, 3, 4),
                  "Squeeze": (1,), "Unsqueeze": (1,), "Split": (1,), "Pad": (1, 2, 3), "Tile": (1,),
                  "ReduceSum": (1,), "ReduceMean": (1,), "ReduceMax": (1,), "ReduceMin": (1,), "Gather": (1,)}
_MIN_OPSET = 13   # Softmax, Split, Squeeze, ReduceSum changed meaning at 13; older files are refused


class ONNXGraph(kusari.Chain):
    """An imported ONNX graph as a Link: float initializers are Parameters at their path (``/conv1/W``).

    ``forward(*inputs)`` takes one array or Variable per graph input, in the graph's order, and returns
    the graph's outputs (one Variable, or a tuple). Statistics (BatchNormalization's mean and
    variance), scalars and integer tensors are persistent values: saved by serializers, not trained.
    """

    def __init__(self, model: onnx.ModelProto, path: str = "<model>"):
        super().__init__()
        self._path = path
        graph = model.graph
        opsets = {o.domain: o.version for o in model.opset_import}
        self._opset = opsets.get("", opsets.get("ai.onnx", 0))
        if self._opset < _MIN_OPSET:
            raise ValueError(f"load: {path} uses opset {self._opset}; kusari imports opsets {_MIN_OPSET} and newer "
                             "(convert it with onnx.version_converter first)")
        onnx.checker.check_model(model)
        for node in graph.node:
            if node.domain not in ("", "ai.onnx"):
                raise ValueError(f"load: {path}: node {node.name!r} is {node.domain}.{node.op_type}, outside "
                                 "ONNX's default domain")
            if node.op_type not in _OPS and node.op_type not in ("Constant",):
                raise ValueError(f"load: {path}: node {node.name!r} is a {node.op_type}, which kusari does not "
                                 f"import (supported: {', '.join(sorted(_OPS))})")
        frozen = {node.input[i] for node in graph.node for i in _FROZEN_INPUTS.get(node.op_type, ())
                  if i < len(node.input)}
        self._slots = {}   # initializer name -> (link, attribute)
        with self.init_scope():
            for tensor in graph.initializer:
                array = numpy_helper.to_array(tensor).copy()
                owner, attr = self._owner(tensor.name)
                if (array.dtype.kind == "f" and array.ndim > 0 and tensor.name not in frozen
                        and tensor.doc_string != CONSTANT_DOC):
                    with owner.init_scope():
                        setattr(owner, attr, kusari.Parameter(array))
                else:
                    owner.add_persistent(attr, array)
                self._slots[tensor.name] = (owner, attr)
        initializers = set(self._slots)
        self._inputs = [i.name for i in graph.input if i.name not in initializers]
        self._outputs = [o.name for o in graph.output]
        self._nodes = list(graph.node)

    def _owner(self, name):
        """The (sub-)Chain and attribute for initializer ``name``, creating Chains along its path."""
        parts = [_attribute(p) for p in name.split("/") if p] or ["_"]
        owner = self
        for part in parts[:-1]:
            child = owner.__dict__.get(part)
            if not isinstance(child, kusari.Chain):
                while part in owner.__dict__ or hasattr(type(owner), part):
                    part += "_"
                child = kusari.Chain()
                owner.add_link(part, child)
            owner = child
        attr = parts[-1]
        while attr in owner.__dict__ or hasattr(type(owner), attr):
            attr += "_"
        return owner, attr

    def forward(self, *inputs):
        if len(inputs) != len(self._inputs):
            raise TypeError(f"ONNXGraph({self._path}): takes {len(self._inputs)} inputs {self._inputs}, "
                            f"got {len(inputs)}")
        env = {name: getattr(owner, attr) for name, (owner, attr) in self._slots.items()}
        for name, x in zip(self._inputs, inputs):
            array = x.array if isinstance(x, Variable) else x
            env[name] = x if isinstance(x, Variable) or array.dtype.kind != "f" else Variable(x)
        env[""] = None
        for node in self._nodes:
            args = [env[name] for name in node.input]
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            if node.op_type == "Constant":
                outputs = [numpy_helper.to_array(attrs["value"])] if "value" in attrs else _reference(node, args)
            elif not any(isinstance(a, Variable) for a in args):
                outputs = _reference(node, args)    # shapes, indices and other constants: folded
            else:
                try:
                    outputs = _OPS[node.op_type](node, attrs, args)
                except (ValueError, TypeError, NotImplementedError) as e:
                    raise type(e)(f"ONNXGraph({self._path}): node {node.name!r} ({node.op_type}): {e}") from e
            outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
            env.update(zip(node.output, outputs))
        results = [y if isinstance(y, Variable) else Variable(numpy.asarray(y)) for y in
                   (env[name] for name in self._outputs)]
        return results[0] if len(results) == 1 else tuple(results)


def _attribute(part):
    """A path component usable as an attribute (``fc.weight`` stays, ``onnx::Conv_1`` -> ``onnx__Conv_1``)."""
    name = "".join(c if c.isalnum() or c in "_." else "_" for c in part)
    return name + "_" if keyword.iskeyword(name) or not name else name


def _reference(node, args):
    """ONNX's reference implementation of ``node`` on arrays (for the graph's constant parts)."""
    from onnx.reference import ReferenceEvaluator
    names = [f"in{i}" for i in range(len(args))]
    renamed = helper.make_node(node.op_type, [n if a is not None else "" for n, a in zip(names, args)],
                               list(node.output), **{a.name: helper.get_attribute_value(a) for a in node.attribute})
    feeds = {n: (a.array if isinstance(a, Variable) else numpy.asarray(a)) for n, a in zip(names, args)
             if a is not None}
    return ReferenceEvaluator(renamed).run(None, feeds)


def load(path) -> ONNXGraph:
    """The ONNX model at ``path`` (or a ModelProto) as a Link running kusari functions; its weights are Parameters.

    The graph's inputs are the Link's positional arguments, in order; its outputs its results. Parts of
    the graph that depend only on constants (shape arithmetic) are evaluated with ONNX's reference
    implementation. Returns an ``ONNXGraph``.
    """
    if isinstance(path, onnx.ModelProto):
        model, name = path, "<ModelProto>"
    else:
        name = os.fspath(path)
        if not os.path.isfile(name):
            raise FileNotFoundError(f"load: no ONNX model at path={name!r}")
        model = onnx.load(name)
    return ONNXGraph(model, name)


# op handlers: handler(node, attrs, args) -> output(s); args are Variables, arrays or None -------------------------

def _const(x, fname, what):
    if isinstance(x, Variable):
        raise ValueError(f"{fname}: {what} must be a constant of the graph, not computed from its inputs")
    return numpy.asarray(x)


def _scalar(x, fname, what):
    value = _const(x, fname, what)
    if value.size != 1:
        raise ValueError(f"{fname}: {what} must hold one value, got shape {value.shape}")
    return float(value.reshape(-1)[0])


def _ints(x, fname, what):
    return [int(v) for v in _const(x, fname, what).reshape(-1)]


def _unary(func):
    return lambda node, attrs, args: func(args[0])


def _binary(func):
    def handler(node, attrs, args):
        a, b = args
        dtype = (a if isinstance(a, Variable) else b).dtype
        a, b = (v if isinstance(v, Variable) else Variable(numpy.asarray(v, dtype=dtype)) for v in (a, b))
        return func(a, b)
    return handler


def _broadcast_pair(a, b):
    a, b = (v if isinstance(v, Variable) else Variable(numpy.asarray(v)) for v in (a, b))
    shape = numpy.broadcast_shapes(a.shape, b.shape)
    return F.broadcast_to(a, shape), F.broadcast_to(b, shape)


def _window_pads(fname, attrs, nd):
    if attrs.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET", b"VALID", "VALID"):
        raise NotImplementedError(f"{fname}: auto_pad={attrs['auto_pad']!r} (give explicit pads)")
    pads = list(attrs.get("pads", [0] * 2 * nd))
    return pads[:nd], pads[nd:]


def _pad_input(x, begin, end, value):
    """``x`` padded explicitly on its spatial axes (for pads ONNX gives asymmetrically)."""
    widths = ((0, 0), (0, 0)) + tuple(zip(begin, end))
    return F.pad(x, widths, "constant", constant_values=value)


def _conv(node, attrs, args):
    x, W = args[:2]
    b = args[2] if len(args) > 2 else None
    nd = W.ndim - 2
    begin, end = _window_pads("Conv", attrs, nd)
    if begin != end:
        x, begin = _pad_input(x, begin, end, 0.0), [0] * nd
    return F.convolution_nd(x, W, b, stride=tuple(attrs.get("strides", [1] * nd)), pad=tuple(begin),
                            dilate=tuple(attrs.get("dilations", [1] * nd)), groups=int(attrs.get("group", 1)))


def _conv_transpose(node, attrs, args):
    x, W = args[:2]
    b = args[2] if len(args) > 2 else None
    nd = W.ndim - 2
    begin, end = _window_pads("ConvTranspose", attrs, nd)
    if begin != end or "output_shape" in attrs:
        raise NotImplementedError("ConvTranspose: asymmetric pads or output_shape")
    stride, dilate = list(attrs.get("strides", [1] * nd)), list(attrs.get("dilations", [1] * nd))
    extra = list(attrs.get("output_padding", [0] * nd))
    outsize = tuple(stride[i] * (x.shape[2 + i] - 1) + (W.shape[2 + i] - 1) * dilate[i] + 1 - 2 * begin[i] + extra[i]
                    for i in range(nd))
    return F.deconvolution_nd(x, W, b, stride=tuple(stride), pad=tuple(begin), outsize=outsize,
                              dilate=tuple(dilate), groups=int(attrs.get("group", 1)))


def _pool(kind):
    def handler(node, attrs, args):
        x = args[0]
        ksize = list(attrs["kernel_shape"])
        nd = len(ksize)
        stride = list(attrs.get("strides", [1] * nd))
        begin, end = _window_pads(node.op_type, attrs, nd)
        if attrs.get("ceil_mode", 0):   # one more window where one starts inside: pad the end to reach it
            for i in range(nd):
                span = x.shape[2 + i] + begin[i] + end[i] - ksize[i]
                if span % stride[i]:
                    end[i] += stride[i] - span % stride[i]
        if kind == "max":
            if begin != end:
                x, begin = _pad_input(x, begin, end, -numpy.inf), [0] * nd
            return F.max_pooling_nd(x, tuple(ksize), tuple(stride), tuple(begin), cover_all=False)
        include = bool(attrs.get("count_include_pad", 0))
        if begin != end:
            if not include:
                raise NotImplementedError("AveragePool: asymmetric pads without count_include_pad")
            x, begin = _pad_input(x, begin, end, 0.0), [0] * nd
        return F.average_pooling_nd(x, tuple(ksize), tuple(stride), tuple(begin), pad_value=0 if include else None)
    return handler


def _gemm(node, attrs, args):
    a, b = args[:2]
    y = F.matmul(a, b, transa=bool(attrs.get("transA", 0)), transb=bool(attrs.get("transB", 0)))
    if attrs.get("alpha", 1.0) != 1.0:
        y = y * attrs["alpha"]
    if len(args) > 2 and args[2] is not None:
        c = args[2] * attrs["beta"] if attrs.get("beta", 1.0) != 1.0 else args[2]
        y = y + c
    return y


def _reduce(func):
    def handler(node, attrs, args):
        x = args[0]
        axes = attrs.get("axes")
        if len(args) > 1 and args[1] is not None:
            axes = _ints(args[1], node.op_type, "axes")
        if not axes:
            if attrs.get("noop_with_empty_axes", 0):
                return F.identity(x)
            axes = list(range(x.ndim))
        return func(x, axis=tuple(int(a) % x.ndim for a in axes), keepdims=bool(attrs.get("keepdims", 1)))
    return handler


def _reshape(node, attrs, args):
    x, shape = args[0], _ints(args[1], "Reshape", "shape")
    shape = [x.shape[i] if s == 0 and not attrs.get("allowzero", 0) else s for i, s in enumerate(shape)]
    return F.reshape(x, tuple(shape))


def _flatten(node, attrs, args):
    x = args[0]
    axis = int(attrs.get("axis", 1)) % (x.ndim + 1) if x.ndim else 0
    return F.reshape(x, (int(numpy.prod(x.shape[:axis])), -1))


def _split(node, attrs, args):
    x = args[0]
    axis = int(attrs.get("axis", 0)) % x.ndim
    if len(args) > 1 and args[1] is not None:
        sizes = _ints(args[1], "Split", "split")
    else:
        n = int(attrs.get("num_outputs", len(node.output)))
        size = -(-x.shape[axis] // n)
        sizes = [size] * (n - 1) + [x.shape[axis] - size * (n - 1)]
    return F.split_axis(x, list(numpy.cumsum(sizes)[:-1]), axis, force_tuple=True)


def _squeeze(node, attrs, args):
    x = args[0]
    if len(args) > 1 and args[1] is not None:
        return F.squeeze(x, tuple(a % x.ndim for a in _ints(args[1], "Squeeze", "axes")))
    return F.squeeze(x)


def _unsqueeze(node, attrs, args):
    x = args[0]
    axes = _ints(args[1], "Unsqueeze", "axes")
    ndim = x.ndim + len(axes)
    shape = list(x.shape)
    for a in sorted(a % ndim for a in axes):
        shape.insert(a, 1)
    return F.reshape(x, tuple(shape))


def _slice(node, attrs, args):
    x = args[0]
    starts, ends = _ints(args[1], "Slice", "starts"), _ints(args[2], "Slice", "ends")
    axes = _ints(args[3], "Slice", "axes") if len(args) > 3 and args[3] is not None else list(range(len(starts)))
    steps = _ints(args[4], "Slice", "steps") if len(args) > 4 and args[4] is not None else [1] * len(starts)
    index = [slice(None)] * x.ndim
    for start, end, axis, step in zip(starts, ends, axes, steps):
        size = x.shape[axis % x.ndim]
        lo = -1 if step < 0 else 0
        start, end = (max(min(v, size + lo), lo - size) for v in (start, end))  # ONNX clamps; Python slices too
        index[axis % x.ndim] = slice(start, end if end != -1 - size else None, step)
    return x[tuple(index)]


def _gather(node, attrs, args):
    data, indices = args
    indices = _const(indices, "Gather", "indices")
    axis = int(attrs.get("axis", 0)) % data.ndim
    indices = numpy.where(indices < 0, indices + data.shape[axis], indices)
    index = (slice(None),) * axis + ((int(indices),) if indices.ndim == 0 else (indices,))
    return data[index]


def _expand(node, attrs, args):
    x = args[0]
    return F.broadcast_to(x, numpy.broadcast_shapes(x.shape, tuple(_ints(args[1], "Expand", "shape"))))


def _batch_normalization(node, attrs, args):
    x, gamma, beta, mean, var = args
    return F.fixed_batch_normalization(x, gamma, beta, mean, var, eps=float(attrs.get("epsilon", 1e-5)))


def _clip(node, attrs, args):
    x = args[0]
    bounds = [_scalar(args[i], "Clip", "min and max") if len(args) > i and args[i] is not None else None
              for i in (1, 2)]
    return F.clip(x, *bounds)


def _prelu(node, attrs, args):
    x, slope = args
    slope = slope if isinstance(slope, Variable) else Variable(numpy.asarray(slope, dtype=x.dtype))
    return F.where(x >= 0, x, x * F.broadcast_to(slope, x.shape))   # the slope broadcasts from the right


def _pad(node, attrs, args):
    x = args[0]
    pads = _ints(args[1], "Pad", "pads")
    value = _scalar(args[2], "Pad", "constant_value") if len(args) > 2 and args[2] is not None else 0.0
    mode = attrs.get("mode", b"constant")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    widths = tuple(zip(pads[:x.ndim], pads[x.ndim:]))
    return F.pad(x, widths, mode, **({"constant_values": value} if mode == "constant" else {}))


def _where(node, attrs, args):
    condition, a, b = args
    a, b = _broadcast_pair(a, b)
    condition = numpy.broadcast_to(condition.array if isinstance(condition, Variable) else condition, a.shape)
    return F.where(condition, a, b)


def _cast(node, attrs, args):
    return F.cast(args[0], helper.tensor_dtype_to_np_dtype(attrs["to"]))


def _softmax(func):
    return lambda node, attrs, args: func(args[0], axis=int(attrs.get("axis", -1)))


def _on_arrays(op):
    """A non-differentiable op (comparisons, logic) computed on the current arrays of its inputs."""
    return lambda node, attrs, args: op(*(a.array if isinstance(a, Variable) else numpy.asarray(a) for a in args))


def _lrn(node, attrs, args):
    size = int(attrs["size"])
    return F.local_response_normalization(args[0], n=size, k=float(attrs.get("bias", 1.0)),
                                          alpha=float(attrs.get("alpha", 1e-4)) / size,
                                          beta=float(attrs.get("beta", 0.75)))


def _arg_extremum(func):
    def handler(node, attrs, args):
        x = args[0]
        if attrs.get("select_last_index", 0):
            raise NotImplementedError(f"{node.op_type}: select_last_index=1")
        axis = int(attrs.get("axis", 0)) % x.ndim
        y = func(x, axis=axis).array.astype(numpy.int64)
        return numpy.expand_dims(y, axis) if attrs.get("keepdims", 1) else y
    return handler


def _gather_elements(node, attrs, args):
    data, indices = args
    indices = _const(indices, "GatherElements", "indices")
    axis = int(attrs.get("axis", 0)) % data.ndim
    index = list(numpy.indices(indices.shape, sparse=True))
    index[axis] = numpy.where(indices < 0, indices + data.shape[axis], indices)
    return data[tuple(index)]


def _cumsum(node, attrs, args):
    if attrs.get("exclusive", 0) or attrs.get("reverse", 0):
        raise NotImplementedError("CumSum: exclusive or reverse")
    return F.cumsum(args[0], axis=int(_scalar(args[1], "CumSum", "axis")))


def _einsum(node, attrs, args):
    equation = attrs["equation"]
    return F.einsum(equation.decode() if isinstance(equation, bytes) else equation, *args)


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


# ONNX Resize settings kusari.functions.resize_images computes: (mode, coordinate transformation, rounding)
_RESIZE = {("linear", "align_corners"): ("bilinear", True), ("linear", "half_pixel"): ("bilinear", False),
           ("nearest", "align_corners", "round_prefer_ceil"): ("nearest", True),
           ("nearest", "asymmetric", "floor"): ("nearest", False)}


def _resize(node, attrs, args):
    x = args[0]
    if len(args) > 3 and args[3] is not None:
        sizes = _ints(args[3], "Resize", "sizes")
    else:
        scales = _const(args[2], "Resize", "scales").reshape(-1)
        sizes = [int(numpy.floor(n * float(r))) for n, r in zip(x.shape, scales)]
    mode = _text(attrs.get("mode", b"nearest"))
    transform = _text(attrs.get("coordinate_transformation_mode", b"half_pixel"))
    key = (mode, transform) if mode != "nearest" else (mode, transform, _text(attrs.get("nearest_mode", b"round_prefer_floor")))
    if list(sizes[:2]) != list(x.shape[:2]) or key not in _RESIZE:
        raise NotImplementedError(f"Resize: {key} over axes other than the spatial ones or in a form "
                                  "kusari.functions.resize_images does not compute")
    if key == ("nearest", "asymmetric", "floor") and all(o % n == 0 for o, n in zip(sizes[2:], x.shape[2:])):
        for axis, (o, n) in enumerate(zip(sizes[2:], x.shape[2:]), start=2):   # whole repeats: any rank
            if o != n:
                x = F.repeat(x, o // n, axis=axis)
        return x
    if x.ndim != 4:
        raise NotImplementedError(f"Resize: {key} of a {x.ndim}-d input (resize_images takes 4-d)")
    kind, align = _RESIZE[key]
    return F.resize_images(x, tuple(sizes[2:]), mode=kind, align_corners=align)


def _recurrent(kind):
    """ONNX's LSTM and GRU (layout 0, default activations) unrolled over time with kusari functions.

    X (seq, batch, in); W (dirs, G*H, in), R (dirs, G*H, H), B (dirs, 2*G*H) with gates in ONNX's
    order (LSTM: i, o, f, c; GRU: z, r, h). Returns Y (seq, dirs, batch, H), Y_h (and LSTM's Y_c).
    """
    n_gates = 4 if kind == "LSTM" else 3

    def split(v, n):
        return F.split_axis(v, n, axis=1, force_tuple=True)

    def handler(node, attrs, args):
        args = list(args) + [None] * (8 - len(args))
        x, W, R, B, lengths, h0, c0 = args[:7]
        for name, default in (("layout", 0), ("clip", None), ("input_forget", 0)):
            if attrs.get(name, default) != default:
                raise NotImplementedError(f"{kind}: {name}={attrs[name]!r}")
        if "activations" in attrs or lengths is not None:
            raise NotImplementedError(f"{kind}: custom activations or sequence_lens")
        hidden = int(attrs["hidden_size"])
        direction = _text(attrs.get("direction", b"forward"))
        directions = {"forward": [False], "reverse": [True], "bidirectional": [False, True]}[direction]
        steps = list(F.separate(x, axis=0))
        batch = x.shape[1]
        ys, hs, cs = [], [], []
        for d, backwards in enumerate(directions):
            w_t, r_t = F.transpose(W[d]), F.transpose(R[d])
            bias_x, bias_h = (split(F.reshape(B[d], (1, -1)), 2) if B is not None else (None, None))
            h = h0[d] if h0 is not None else Variable(numpy.zeros((batch, hidden), x.dtype))
            c = c0[d] if c0 is not None else Variable(numpy.zeros((batch, hidden), x.dtype))
            out = [None] * len(steps)
            for t in (reversed(range(len(steps))) if backwards else range(len(steps))):
                gx, gh = F.matmul(steps[t], w_t), F.matmul(h, r_t)
                if bias_x is not None:
                    gx, gh = gx + F.broadcast_to(bias_x, gx.shape), gh + F.broadcast_to(bias_h, gh.shape)
                if kind == "LSTM":
                    i, o, f, g = split(gx + gh, n_gates)
                    c = F.sigmoid(f) * c + F.sigmoid(i) * F.tanh(g)
                    h = F.sigmoid(o) * F.tanh(c)
                else:
                    (zx, rx, hx), (zh, rh, hh) = split(gx, n_gates), split(gh, n_gates)
                    z, r = F.sigmoid(zx + zh), F.sigmoid(rx + rh)
                    if attrs.get("linear_before_reset", 0):
                        candidate = F.tanh(hx + r * hh)
                    else:   # r applied to h before its product with R
                        r_h = F.matmul(r * h, r_t[:, 2 * hidden:])
                        if bias_h is not None:
                            r_h = r_h + F.broadcast_to(bias_h[:, 2 * hidden:], r_h.shape)
                        candidate = F.tanh(hx + r_h)
                    h = (1.0 - z) * candidate + z * h
                out[t] = h
            ys.append(F.stack(out, axis=0))
            hs.append(h)
            cs.append(c)
        outputs = [F.stack(ys, axis=1), F.stack(hs, axis=0)]
        return outputs + [F.stack(cs, axis=0)] if kind == "LSTM" else outputs
    return handler


def _roi_align(node, attrs, args):
    x, rois, indices = args
    mode, transform = _text(attrs.get("mode", b"avg")), _text(attrs.get("coordinate_transformation_mode", b"half_pixel"))
    if mode != "avg" or transform != "output_half_pixel":
        raise NotImplementedError(f"RoiAlign: mode={mode!r}, coordinate_transformation_mode={transform!r} "
                                  "(kusari's roi_average_align_2d is avg without the half-pixel offset)")
    boxes = rois[:, [1, 0, 3, 2]] if isinstance(rois, Variable) else numpy.asarray(rois)[:, [1, 0, 3, 2]]
    ratio = int(attrs.get("sampling_ratio", 0)) or None
    return F.roi_average_align_2d(x, boxes, _const(indices, "RoiAlign", "batch_indices"),
                                  (int(attrs.get("output_height", 1)), int(attrs.get("output_width", 1))),
                                  float(attrs.get("spatial_scale", 1.0)), ratio)


def _mod(attrs, x, divisor):
    if not attrs.get("fmod", 0):
        raise NotImplementedError("Mod: fmod=0 (Python's modulo; kusari has fmod)")
    divisor = divisor if isinstance(divisor, Variable) else Variable(numpy.asarray(divisor, dtype=x.dtype))
    return F.fmod(*_broadcast_pair(x, divisor))


def _depth_to_space(node, attrs, args):
    mode = attrs.get("mode", b"DCR")
    if mode not in (b"DCR", "DCR"):
        raise NotImplementedError(f"DepthToSpace: mode={mode!r} (kusari's depth2space is DCR)")
    return F.depth2space(args[0], int(attrs["blocksize"]))


_OPS = {
    "Conv": _conv, "ConvTranspose": _conv_transpose, "MaxPool": _pool("max"), "AveragePool": _pool("average"),
    "GlobalAveragePool": lambda node, attrs, args: F.mean(args[0], axis=tuple(range(2, args[0].ndim)), keepdims=True),
    "GlobalMaxPool": lambda node, attrs, args: F.max(args[0], axis=tuple(range(2, args[0].ndim)), keepdims=True),
    "Gemm": _gemm, "MatMul": lambda node, attrs, args: F.matmul(*args),
    "BatchNormalization": _batch_normalization,
    "Add": _binary(lambda a, b: a + b), "Sub": _binary(lambda a, b: a - b), "Mul": _binary(lambda a, b: a * b),
    "Div": _binary(lambda a, b: a / b), "Pow": _binary(lambda a, b: a ** b),
    "Max": lambda node, attrs, args: F.maximum(*_broadcast_pair(*args)),
    "Min": lambda node, attrs, args: F.minimum(*_broadcast_pair(*args)),
    "Relu": _unary(F.relu), "Sigmoid": _unary(F.sigmoid), "Tanh": _unary(F.tanh), "Exp": _unary(F.exp),
    "Log": _unary(F.log), "Sqrt": _unary(F.sqrt), "Abs": _unary(F.absolute), "Neg": _unary(lambda x: -x),
    "Erf": _unary(F.erf), "Reciprocal": _unary(lambda x: 1.0 / x), "Softplus": _unary(F.softplus),
    "Sin": _unary(F.sin), "Cos": _unary(F.cos), "Tan": _unary(F.tan), "Asin": _unary(F.arcsin),
    "Acos": _unary(F.arccos), "Atan": _unary(F.arctan), "Sinh": _unary(F.sinh), "Cosh": _unary(F.cosh),
    "Atanh": _unary(F.arctanh), "Floor": _unary(F.floor), "Ceil": _unary(F.ceil), "Sign": _unary(F.sign),
    "HardSwish": _unary(F.hard_swish), "Identity": _unary(F.identity), "Dropout": _unary(F.identity),
    "LeakyRelu": lambda node, attrs, args: F.leaky_relu(args[0], float(attrs.get("alpha", 0.01))),
    "Elu": lambda node, attrs, args: F.elu(args[0], float(attrs.get("alpha", 1.0))),
    "HardSigmoid": lambda node, attrs, args: F.clip(args[0] * float(attrs.get("alpha", 0.2))
                                                    + float(attrs.get("beta", 0.5)), 0.0, 1.0),
    "PRelu": _prelu, "Clip": _clip, "Softmax": _softmax(F.softmax), "LogSoftmax": _softmax(F.log_softmax),
    "Reshape": _reshape, "Flatten": _flatten,
    "Transpose": lambda node, attrs, args: F.transpose(args[0], attrs.get("perm")),
    "Concat": lambda node, attrs, args: F.concat([a if isinstance(a, Variable) else Variable(numpy.asarray(a))
                                                  for a in args], axis=int(attrs["axis"])),
    "Split": _split, "Squeeze": _squeeze, "Unsqueeze": _unsqueeze, "Slice": _slice, "Gather": _gather,
    "Expand": _expand, "Tile": lambda node, attrs, args: F.tile(args[0], tuple(_ints(args[1], "Tile", "repeats"))),
    "ReduceSum": _reduce(F.sum), "ReduceMean": _reduce(F.mean), "ReduceMax": _reduce(F.max),
    "ReduceMin": _reduce(F.min), "Pad": _pad, "Where": _where, "Cast": _cast, "LRN": _lrn,
    "DepthToSpace": _depth_to_space,
    "SpaceToDepth": lambda node, attrs, args: F.space2depth(args[0], int(attrs["blocksize"])),
    "Equal": _on_arrays(numpy.equal), "Less": _on_arrays(numpy.less), "Greater": _on_arrays(numpy.greater),
    "LessOrEqual": _on_arrays(numpy.less_equal), "GreaterOrEqual": _on_arrays(numpy.greater_equal),
    "Not": _on_arrays(numpy.logical_not),
    "Shape": lambda node, attrs, args: numpy.asarray(args[0].shape, dtype=numpy.int64),
    "ArgMax": _arg_extremum(F.argmax), "ArgMin": _arg_extremum(F.argmin), "GatherElements": _gather_elements,
    "MaxRoiPool": lambda node, attrs, args: F.roi_pooling_2d(
        args[0], args[1], *attrs["pooled_shape"], float(attrs.get("spatial_scale", 1.0))),
    "LSTM": _recurrent("LSTM"), "GRU": _recurrent("GRU"),
    "Mod": lambda node, attrs, args: _mod(attrs, *args), "RoiAlign": _roi_align,
    "CumSum": _cumsum, "Einsum": _einsum, "ReduceProd": _reduce(F.prod), "Resize": _resize,
}
