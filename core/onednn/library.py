"""Finding and loading oneDNN's shared library (``libdnnl.so.3``), its C functions, and its error codes.

The library comes from the ``[onednn]`` extra (the ``onednn-cpu-gomp`` wheel puts ``libdnnl.so.3``
into the environment's ``lib`` folder), from ``KUSARI_ONEDNN_LIBRARY`` (a path), or from the
system's linker path. It is looked up once, on first use. A library that is found but cannot be
used (it fails to load, lacks a function, or is not oneDNN 3.x) is reported once as a
``RuntimeWarning`` naming the file, and kusari keeps its NumPy kernels.

oneDNN runs on OpenMP threads (GNU OpenMP in the wheel), so ``OMP_NUM_THREADS`` (or
threadpoolctl's ``user_api="openmp"``) sets how many threads its kernels use.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import threading
import warnings

SONAME = "libdnnl.so.3"
# Status codes of dnnl_status_t, for error messages.
_STATUS = {1: "out of memory", 2: "invalid arguments", 3: "unimplemented", 4: "last implementation reached",
           5: "runtime error", 6: "not required", 7: "invalid graph", 8: "invalid graph op",
           9: "invalid shape", 10: "invalid data type"}
_ENGINE_CPU = 1
_STREAM_DEFAULT_FLAGS = 1

_p = ctypes.c_void_p
_pp = ctypes.POINTER(ctypes.c_void_p)
_dims = ctypes.POINTER(ctypes.c_int64)
_i, _u, _f, _i64 = ctypes.c_int, ctypes.c_uint, ctypes.c_float, ctypes.c_int64
# name: (result type, argument types). dnnl_status_t results are checked by ``call``.
_FUNCTIONS = {
    "dnnl_version": (_p, []),
    "dnnl_engine_create": (_i, [_pp, _i, ctypes.c_size_t]),
    "dnnl_stream_create": (_i, [_pp, _p, _u]),
    "dnnl_memory_desc_create_with_tag": (_i, [_pp, _i, _dims, _i, _i]),
    "dnnl_memory_desc_create_with_strides": (_i, [_pp, _i, _dims, _i, _dims]),
    "dnnl_memory_desc_destroy": (_i, [_p]),
    "dnnl_memory_desc_get_size": (ctypes.c_size_t, [_p]),
    "dnnl_memory_desc_equal": (_i, [_p, _p]),
    "dnnl_memory_create": (_i, [_pp, _p, _p, _p]),
    "dnnl_memory_destroy": (_i, [_p]),
    "dnnl_primitive_attr_create": (_i, [_pp]),
    "dnnl_primitive_attr_destroy": (_i, [_p]),
    "dnnl_primitive_attr_set_scratchpad_mode": (_i, [_p, _i]),
    "dnnl_primitive_desc_query_md": (_p, [_p, _i, _i]),
    "dnnl_primitive_desc_destroy": (_i, [_p]),
    "dnnl_primitive_create": (_i, [_pp, _p]),
    "dnnl_primitive_destroy": (_i, [_p]),
    "dnnl_primitive_execute": (_i, [_p, _p, _i, _p]),
    "dnnl_reorder_primitive_desc_create": (_i, [_pp, _p, _p, _p, _p, _p]),
    "dnnl_convolution_forward_primitive_desc_create":
        (_i, [_pp, _p, _i, _i, _p, _p, _p, _p, _dims, _dims, _dims, _dims, _p]),
    "dnnl_convolution_backward_data_primitive_desc_create":
        (_i, [_pp, _p, _i, _p, _p, _p, _dims, _dims, _dims, _dims, _p, _p]),
    "dnnl_convolution_backward_weights_primitive_desc_create":
        (_i, [_pp, _p, _i, _p, _p, _p, _p, _dims, _dims, _dims, _dims, _p, _p]),
    "dnnl_pooling_forward_primitive_desc_create":
        (_i, [_pp, _p, _i, _i, _p, _p, _dims, _dims, _dims, _dims, _dims, _p]),
    "dnnl_pooling_backward_primitive_desc_create":
        (_i, [_pp, _p, _i, _p, _p, _dims, _dims, _dims, _dims, _dims, _p, _p]),
    "dnnl_batch_normalization_forward_primitive_desc_create": (_i, [_pp, _p, _i, _p, _p, _f, _u, _p]),
    "dnnl_batch_normalization_backward_primitive_desc_create":
        (_i, [_pp, _p, _i, _p, _p, _p, _f, _u, _p, _p]),
    "dnnl_sgemm": (_i, [ctypes.c_char, ctypes.c_char, _i64, _i64, _i64, _f, _p, _i64, _p, _i64, _f, _p, _i64]),
}


class OneDNNError(RuntimeError):
    """A oneDNN call failed; ``status`` is its dnnl_status_t code."""

    def __init__(self, function: str, status: int):
        super().__init__(f"oneDNN: {function} failed with status {status} "
                         f"({_STATUS.get(status, 'unknown status')})")
        self.status = status


class Library:
    """The loaded ``libdnnl`` with typed C functions as attributes, its CPU engine, and per-thread streams."""

    def __init__(self, path: str):
        self.path = path
        handle = ctypes.CDLL(path)
        for name, (restype, argtypes) in _FUNCTIONS.items():
            function = getattr(handle, name)  # AttributeError: a function this library lacks
            function.restype = restype
            function.argtypes = argtypes
            setattr(self, name[len("dnnl_"):], function)
        major, minor, patch = ctypes.cast(self.version(), ctypes.POINTER(ctypes.c_int * 3)).contents
        self.version_tuple = (major, minor, patch)
        if major != 3:
            raise OSError(f"kusari needs oneDNN 3.x, this is {major}.{minor}.{patch}")
        engine = ctypes.c_void_p()
        self.call("dnnl_engine_create", self.engine_create, ctypes.byref(engine), _ENGINE_CPU, 0)
        self.engine = engine
        self._local = threading.local()

    @staticmethod
    def call(name: str, function, *args) -> None:
        """``function(*args)``, raising :class:`OneDNNError` naming ``name`` unless it returns success."""
        status = function(*args)
        if status:
            raise OneDNNError(name, status)

    def stream(self) -> ctypes.c_void_p:
        """This thread's stream on the CPU engine (oneDNN streams are not shared between threads)."""
        stream = getattr(self._local, "stream", None)
        if stream is None:
            stream = ctypes.c_void_p()
            self.call("dnnl_stream_create", self.stream_create, ctypes.byref(stream), self.engine,
                      _STREAM_DEFAULT_FLAGS)
            self._local.stream = stream
        return stream


def candidate_paths() -> list[str]:
    """Where ``libdnnl.so.3`` is looked for, in order: ``KUSARI_ONEDNN_LIBRARY``, the environment's
    ``lib`` folders (a pip-installed wheel), then the linker's path."""
    explicit = os.environ.get("KUSARI_ONEDNN_LIBRARY")
    if explicit:
        return [explicit]
    folders = [os.path.join(prefix, "lib") for prefix in dict.fromkeys((sys.prefix, sys.base_prefix))]
    import site
    folders.append(os.path.join(site.getuserbase(), "lib"))
    found = [os.path.join(folder, SONAME) for folder in folders if os.path.isfile(os.path.join(folder, SONAME))]
    system = ctypes.util.find_library("dnnl")
    if system:
        found.append(system)
    return found


_LOCK = threading.Lock()
_LOADED: list = []  # [Library or None] once looked up


def load() -> Library | None:
    """The oneDNN library, or None when it is absent or unusable (warned about once, naming the file)."""
    if _LOADED:
        return _LOADED[0]
    with _LOCK:
        if not _LOADED:
            _LOADED.append(_first_loadable(candidate_paths()))
    return _LOADED[0]


def _first_loadable(paths):
    for path in paths:
        try:
            return Library(path)
        except (OSError, AttributeError, OneDNNError) as e:
            warnings.warn(f"kusari: the oneDNN library {path} cannot be used ({e}); convolution, pooling, "
                          f"batch normalization and linear layers run on NumPy", RuntimeWarning, stacklevel=4)
    return None
