"""The graph under construction and the per-op Context that converters add ONNX nodes through."""
import numpy
from onnx import helper, numpy_helper


# doc_string of initializers that are not Parameters (constants, statistics): load() keeps them out of training
CONSTANT_DOC = "kusari: a constant of the traced forward, not a parameter"


class ExportError(ValueError):
    """An op or a forward that kusari cannot write as ONNX (the message names the op and its link path)."""


class Graph:
    """Nodes, initializers and the known values of one export.

    ``names`` maps ``id(array)`` of every traced array (inputs, op outputs, parameters, constants)
    to its ONNX value name; ``dims`` maps a value name to its shape with dynamic axes as strings;
    ``keep`` holds the traced arrays so that their ids stay unique while the export runs.
    """

    def __init__(self, opset: int):
        self.opset = opset
        self.nodes = []
        self.initializers = []
        self.initializer_names = set()
        self.names = {}
        self.dims = {}
        self.keep = []
        self.dim_sources = {}   # (traced size, probed size) -> (input name, axis, dim name)
        self._shapes = {}       # input name -> the name of its Shape node's output
        self._memory = {}       # memory_key(array) -> value name
        self._used = set()

    def unique(self, base: str) -> str:
        """``base``, or ``base_k`` with the first free k."""
        name, k = base, 0
        while name in self._used:
            k += 1
            name = f"{base}_{k}"
        self._used.add(name)
        return name

    def add_initializer(self, array, name: str, constant: bool = True) -> str:
        """An initializer holding ``array``; ``constant=False`` for a model Parameter."""
        name = self.unique(name)
        tensor = numpy_helper.from_array(numpy.ascontiguousarray(array), name)
        if constant:
            tensor.doc_string = CONSTANT_DOC
        self.initializers.append(tensor)
        self.initializer_names.add(name)
        self.dims[name] = tuple(numpy.shape(array))
        return name

    def name_array(self, array, name: str) -> None:
        self.keep.append(array)
        self.names[id(array)] = name
        key = memory_key(array)
        if key is not None:
            self._memory[key] = name

    def name_of(self, array):
        """The value name of a traced ``array``, also of an unseen array on exactly its memory (a view of
        it, ``numpy.asarray`` of a guarded view); else None."""
        name = self.names.get(id(array))
        if name is None:
            key = memory_key(array)
            name = None if key is None else self._memory.get(key)
            if name is not None:
                self.name_array(array, name)
        return name


def memory_key(array):
    """What identifies a NumPy array's view of memory (None for other arrays and empty ones)."""
    if not isinstance(array, numpy.ndarray) or not array.size:
        return None
    return (array.__array_interface__["data"][0], array.shape, array.strides, array.dtype.str)


class Context:
    """What a converter sees of one traced op: its input names and arrays, and ways to add ONNX nodes.

    ``inputs``: value names, one per input of the kusari node; ``in_arrays`` / ``out_arrays``: the
    traced arrays (for shapes and dtypes); ``opset``: the target opset; ``prefix``: the link path
    of the op (``/conv1/``), used for node names.
    """

    def __init__(self, graph: Graph, node, inputs, in_arrays, out_arrays, prefix: str, probed=None):
        self.graph = graph
        self.node = node
        self.inputs = list(inputs)
        self.in_arrays = in_arrays
        self.out_arrays = out_arrays
        self.prefix = prefix
        self.opset = graph.opset
        self.label = type(node).__name__
        self.out_dims = {}    # dims that a converter sets for its outputs (default: from the probe run)
        self.probed = probed  # (input shapes, output shapes) at other sizes of the dynamic axes, or None

    def add(self, op_type: str, inputs, n_outputs: int = 1, **attrs):
        """Add an ONNX node; returns its output name (a list when ``n_outputs`` > 1)."""
        base = self.prefix + self.label
        outputs = [self.graph.unique(base) for _ in range(n_outputs)]
        self.graph.nodes.append(helper.make_node(op_type, list(inputs), outputs,
                                                 name=self.graph.unique(f"{base}/{op_type}"), **attrs))
        return outputs[0] if n_outputs == 1 else outputs

    def unsupported(self, reason: str):
        """Raise ExportError: this op, at this link path, has no ONNX form in this case."""
        raise ExportError(f"export: {self.label} (at link path {self.prefix.rstrip('/') or '/'}) cannot be "
                          f"exported: {reason}")

    def const(self, value, dtype=None) -> str:
        """An initializer holding ``value`` (as ``dtype``, default input 0's dtype)."""
        dtype = self.in_arrays[0].dtype if dtype is None else dtype
        return self.graph.add_initializer(numpy.asarray(value, dtype=dtype), f"{self.prefix}{self.label}/const")

    def ints(self, values) -> str:
        """A 1-d int64 initializer (shapes, axes, pads for ops that take them as inputs)."""
        return self.const(numpy.asarray(list(values), dtype=numpy.int64).reshape(-1), numpy.int64)

    def reduce(self, op_type: str, x: str, axes, keepdims: bool) -> str:
        """``op_type`` (ReduceSum, ReduceMean, ReduceMax, ...) over ``axes``, whose axes moved to an input
        at opset 13 (ReduceSum) or 18 (the others)."""
        axes = [int(a) for a in axes]
        if op_type == "ReduceSum" or self.opset >= 18:
            return self.add(op_type, [x, self.ints(axes)], keepdims=int(keepdims))
        return self.add(op_type, [x], axes=axes, keepdims=int(keepdims))

    def _probed_shape(self, shape, like):
        in_shape, in_probed = tuple(self.in_arrays[like].shape), self.probed[0][like]
        probed = self.probed[1][0]
        target, unresolved = [], []
        for i, (t, p) in enumerate(zip(shape, probed)):
            if t == p:
                target.append(int(t))
            elif i < len(in_shape) and in_shape[i] == t and in_probed[i] == p:
                target.append(0)   # copies the input's size at this position
            else:
                target.append(-1)
                unresolved.append(i)
        self.out_dims[0] = self.probed_dims(0)
        if len(unresolved) <= 1:
            return self.ints(target)
        runtime = self.runtime_shape(shape, probed)
        if runtime is None:
            self.unsupported(f"reshape to {tuple(shape)}: several sizes change with the dynamic axes and "
                             "follow none of the inputs' axes")
        return runtime

    @staticmethod
    def tensor_type(dtype) -> int:
        """The ONNX TensorProto element type of a NumPy dtype."""
        return helper.np_dtype_to_tensor_dtype(numpy.dtype(dtype))

    def dims(self, name: str) -> tuple:
        """The shape of value ``name`` with dynamic axes as strings (None if unknown)."""
        return self.graph.dims.get(name)

    def dynamic(self, i: int = 0) -> tuple:
        """Which axes of input ``i`` are dynamic: a tuple of bools."""
        dims = self.dims(self.inputs[i]) or tuple(numpy.shape(self.in_arrays[i]))
        return tuple(isinstance(d, str) for d in dims)

    def probed_dims(self, j: int) -> tuple:
        """Output ``j``'s dims: sizes that differ in the probe run are dynamic (named as the input axis they
        follow, else after this op)."""
        out = []
        for i, (t, p) in enumerate(zip(self.out_arrays[j].shape, self.probed[1][j])):
            source = self.graph.dim_sources.get((t, p))
            out.append(t if t == p else source[2] if source else f"{self.prefix}{self.label}_{j}_{i}")
        return tuple(out)

    def runtime_shape(self, shape, probed) -> str:
        """An int64 tensor of ``shape`` in which the sizes that differ from ``probed`` are read at run time from
        the graph input axis they follow; None if one follows none."""
        pieces, static = [], []
        for t, p in zip(shape, probed):
            if t == p:
                static.append(int(t))
                continue
            source = self.graph.dim_sources.get((t, p))
            if source is None:
                return None
            if static:
                pieces.append(self.ints(static))
                static = []
            name, axis, _ = source
            if name not in self.graph._shapes:
                self.graph._shapes[name] = self.add("Shape", [name])
            pieces.append(self.add("Gather", [self.graph._shapes[name], self.ints([axis])], axis=0))
        if static:
            pieces.append(self.ints(static))
        return pieces[0] if len(pieces) == 1 else self.add("Concat", pieces, axis=0)

    def shape_for(self, shape, like: int = 0) -> str:
        """An int64 shape input for Reshape (of output 0, whose dims it sets): axes that copy a dynamic
        axis of input ``like`` at the same position become 0 (copy), and one axis holding a dynamic
        size otherwise becomes -1. With a probe run, the sizes that change are copied (0), read at run time
        from a graph input, or inferred (-1)."""
        in_shape = tuple(self.in_arrays[like].shape)
        if self.probed is not None:
            return self._probed_shape(shape, like)
        dyn = self.dynamic(like)
        target = [int(s) for s in shape]
        kept = [i < len(in_shape) and dyn[i] and target[i] == in_shape[i] for i in range(len(target))]
        if any(dyn[i] and not (i < len(kept) and kept[i]) for i in range(len(in_shape))):
            # a dynamic axis folded into another: let the first axis it divides absorb it
            free = [i for i in range(len(target)) if not kept[i]]
            sizes = [in_shape[i] for i in range(len(in_shape)) if dyn[i] and not (i < len(kept) and kept[i])]
            for i in free:
                if all(target[i] % s == 0 for s in sizes):
                    target[i] = -1
                    break
        in_dims = self.dims(self.inputs[like]) or in_shape
        self.out_dims[0] = tuple(in_dims[i] if k else (f"{self.prefix}{self.label}_{i}" if t == -1 else t)
                                 for i, (k, t) in enumerate(zip(kept, target)))
        return self.ints([0 if k else t for k, t in zip(kept, target)])
