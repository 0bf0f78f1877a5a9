"""cuDNN behind kusari's GPU convolutions and batch normalization, through NVIDIA's cudnn-frontend graphs.

CuPy 14 ships no cuDNN bindings; the ``[cuda12]`` extra brings ``nvidia-cudnn-frontend`` (its Python
graph API) and ``nvidia-cudnn-cu12`` (the library). The ops' array kernels ask :func:`library_for`
first: when it returns the frontend module, a cuDNN graph computes the result; when it returns None
(CPU arrays, ``config.use_cudnn == 'never'``, no frontend, float64 under ``'auto'``) or the graph is
not supported for the case, the CuPy kernels (im2col + cuBLAS) do, which stay the reference.

Configuration, read once per op:

- ``config.use_cudnn`` (``KUSARI_USE_CUDNN``): ``'auto'`` (default: cuDNN for float16, bfloat16
  and float32 GPU arrays when the frontend imports), ``'always'`` (every case cuDNN implements,
  float64 included; an error when the frontend is missing or a graph is unsupported) or ``'never'``.
- ``config.cudnn_deterministic``: only engines without cuDNN's NONDETERMINISTIC note.
- ``config.cudnn_allow_tf32`` (default True, as PyTorch's ``cudnn.allow_tf32``): float32 graphs may
  use TF32 tensor cores; False deselects the TENSOR_CORE engines for float32.
- ``config.autotune``: build every plan the heuristics offer and time each once per graph key,
  instead of taking the heuristics' first choice.

Built graphs are cached per device by :func:`graph_key` (operation, dtype, shapes and strides,
parameters and the three switches above), so a training loop builds each graph once.
"""
from __future__ import annotations

import functools
import warnings
from collections import OrderedDict

import numpy

from kusari import backend
from kusari.configuration import config

MODES = ("auto", "always", "never")
_AUTO_DTYPES = ("float16", "bfloat16", "float32")     # float64 stays on cuBLAS unless 'always'
_ALWAYS_DTYPES = _AUTO_DTYPES + ("float64",)
CACHE_SIZE = 512   # built graphs kept per process (a ResNet-50 step needs about 160)


def _mode() -> str:
    mode = config.use_cudnn
    if mode not in MODES:
        raise ValueError(f"config.use_cudnn must be one of {MODES}, got {mode!r}")
    return mode


@functools.lru_cache(maxsize=None)
def _import_frontend():
    """The ``cudnn`` module of nvidia-cudnn-frontend and None, or None and why it cannot be used."""
    try:
        import cudnn
    except Exception as e:   # ImportError, or an OSError when libcudnn is absent
        return None, f"{type(e).__name__}: {e}"
    return cudnn, None


def library_for(*arrays):
    """The frontend module if cuDNN should compute on ``arrays``, else None (the CuPy kernels do).

    ``arrays`` (None entries skipped) must all be non-empty GPU arrays of one dtype that
    ``config.use_cudnn`` admits. Under ``'always'`` a missing frontend raises RuntimeError.
    """
    mode = _mode()
    if mode == "never":
        return None
    dtype = None
    for a in arrays:
        if a is None:
            continue
        if not backend.is_gpu_array(a) or not a.size or (dtype is not None and a.dtype != dtype):
            return None
        dtype = a.dtype
    if dtype is None or dtype.name not in (_ALWAYS_DTYPES if mode == "always" else _AUTO_DTYPES):
        return None
    lib, why = _import_frontend()
    if lib is None and mode == "always":
        raise RuntimeError(f"config.use_cudnn='always' but cuDNN cannot be used: nvidia-cudnn-frontend "
                           f"does not import ({why}); install it with pip install 'kusari[cuda12]', "
                           f"or set use_cudnn to 'auto' to fall back to the CuPy kernels")
    return lib


def available() -> bool:
    """Whether nvidia-cudnn-frontend (and so cuDNN) imports."""
    return _import_frontend()[0] is not None


def flags() -> tuple:
    """The switches that change which engines a graph may use: (deterministic, allow_tf32, autotune)."""
    return bool(config.cudnn_deterministic), bool(config.cudnn_allow_tf32), bool(config.autotune)


def layout_of(strides, itemsize) -> tuple:
    """The element strides of an array, which (with its shape) fix its memory layout."""
    return tuple(s // itemsize for s in strides)


def graph_key(op: str, arrays, params, switches=None) -> tuple:
    """The cache key of a graph: ``op``, the device, dtype, shape and layout of each array, the
    operation's ``params`` (a tuple of hashables) and the engine switches (default: :func:`flags`)."""
    described = []
    device = None
    for a in arrays:
        described.append((a.dtype.name, tuple(a.shape), layout_of(a.strides, a.dtype.itemsize)))
        device = getattr(getattr(a, "device", None), "id", device)
    return (op, device, tuple(described), tuple(params), flags() if switches is None else tuple(switches))


class GraphCache:
    """Least-recently-used built graphs: ``get(key, build)`` returns the cached value or ``build()``'s."""

    def __init__(self, size: int = CACHE_SIZE):
        self.size = size
        self._entries = OrderedDict()

    def get(self, key, build):
        entry = self._entries.get(key)
        if entry is None:
            entry = build()
            self._entries[key] = entry
            if len(self._entries) > self.size:
                self._entries.popitem(last=False)
        else:
            self._entries.move_to_end(key)
        return entry

    def __len__(self):
        return len(self._entries)

    def clear(self):
        self._entries.clear()


graphs = GraphCache()
_handles = {}                 # device id -> cuDNN handle
_refused = set()              # graph keys cuDNN does not support (warned once, then CuPy computes)


def data_type(lib, dtype):
    """The frontend's data type of a NumPy dtype."""
    return {"float16": lib.data_type.HALF, "bfloat16": lib.data_type.BFLOAT16, "float32": lib.data_type.FLOAT,
            "float64": lib.data_type.DOUBLE}[numpy.dtype(dtype).name]


def handle(lib):
    """This device's cuDNN handle, bound to CuPy's current stream."""
    import cupy
    device = cupy.cuda.Device().id
    h = _handles.get(device)
    if h is None:
        h = _handles[device] = lib.create_handle()
    lib.set_stream(handle=h, stream=cupy.cuda.get_current_stream().ptr)
    return h


def new_graph(lib, dtype, cudnn_handle=None):
    """An empty graph whose inputs and outputs are ``dtype``, computing in float32 (float64 for float64).

    Without ``cudnn_handle`` the graph can be described and validated, not built (no GPU needed).
    """
    compute = lib.data_type.DOUBLE if numpy.dtype(dtype) == numpy.float64 else lib.data_type.FLOAT
    extra = {} if cudnn_handle is None else {"handle": cudnn_handle}
    return lib.pygraph(io_data_type=data_type(lib, dtype), intermediate_data_type=compute,
                       compute_data_type=compute, **extra)


def tensor(lib, graph, array=None, shape=None, dtype=None):
    """A graph tensor of ``array``'s shape, layout and dtype (or a contiguous one of ``shape``)."""
    if array is not None:
        shape, dtype = array.shape, array.dtype
        strides = layout_of(array.strides, array.dtype.itemsize)
    else:
        strides = tuple(int(s) for s in numpy.cumprod((1,) + tuple(shape[:0:-1]))[::-1])
    return graph.tensor(dim=list(shape), stride=list(strides), data_type=data_type(lib, dtype))


class Plan:
    """A built graph, its tensors by role, the plan index to run (None: the plan the heuristics' build
    chose) and the workspace it needs."""

    __slots__ = ("graph", "tensors", "index", "workspace")

    def __init__(self, graph, tensors, index, workspace):
        self.graph, self.tensors, self.index, self.workspace = graph, tensors, index, workspace

    def run(self, lib, arrays: dict):
        """Execute with ``arrays`` (role -> CuPy array, or a host NumPy scalar array for by-value tensors)."""
        import cupy
        pack = {self.tensors[role]: (a.ctypes.data if isinstance(a, numpy.ndarray) else a.data.ptr)
                for role, a in arrays.items()}
        workspace = cupy.empty(max(self.workspace, 1), numpy.uint8)
        if self.index is None:
            self.graph.execute(pack, workspace.data.ptr, handle=handle(lib))
        else:
            self.graph.execute_plan_at_index(pack, workspace.data.ptr, self.index, handle=handle(lib))


def build(lib, graph, tensors, switches, dtype, time_with=None) -> Plan:
    """Finish ``graph``: engines filtered by ``switches``, heuristics' first plan, or with autotune
    every plan built and the fastest of one timed run each (``time_with``: role -> arrays)."""
    deterministic, allow_tf32, autotune = switches
    graph.validate()
    graph.build_operation_graph()
    graph.create_execution_plans([lib.heur_mode.A, lib.heur_mode.FALLBACK])
    if deterministic:
        graph.deselect_numeric_notes([lib.numerical_note.NONDETERMINISTIC])
    if not allow_tf32 and numpy.dtype(dtype) == numpy.float32:
        graph.deselect_numeric_notes([lib.numerical_note.TENSOR_CORE])
    graph.check_support()
    if not autotune or time_with is None:
        graph.build_plans()   # the first candidate that builds, which execute() then runs
        return Plan(graph, tensors, None, graph.get_workspace_size())
    graph.build_plans(lib.build_plan_policy.ALL)
    return _fastest(lib, graph, tensors, time_with)


def _fastest(lib, graph, tensors, arrays) -> Plan:
    import cupy
    best = None
    for index in range(graph.get_execution_plan_count()):
        plan = Plan(graph, tensors, index, graph.get_workspace_size_plan_at_index(index))
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        try:
            plan.run(lib, arrays)    # warm-up (and a check that this plan runs)
            start.record()
            plan.run(lib, arrays)
            stop.record()
            stop.synchronize()
        except Exception:   # a plan that failed to build or run: the others compete
            continue
        elapsed = cupy.cuda.get_elapsed_time(start, stop)
        if best is None or elapsed < best[0]:
            best = (elapsed, plan)
    if best is None:
        raise RuntimeError("cudnn: autotune found no plan that runs")
    return best[1]


def plan_for(lib, key, make):
    """The cached plan for ``key``, built by ``make()`` on first use; None when cuDNN refuses the case
    (under ``'auto'``: a warning once per key, then the CuPy kernels; under ``'always'``: the error)."""
    if key in _refused:
        return None
    try:
        return graphs.get(key, make)
    except Exception as e:
        if _mode() == "always":
            raise RuntimeError(f"cudnn: config.use_cudnn='always' but cuDNN does not support {key[0]} "
                               f"for {key[2]} with parameters {key[3]}: {e}") from e
        _refused.add(key)
        warnings.warn(f"cudnn: {key[0]} for {key[2]} with parameters {key[3]} is not supported by cuDNN "
                      f"({e}); the CuPy kernels compute it", stacklevel=3)
        return None
