"""oneDNN memory descriptors and primitives on NumPy buffers, built once per shape and parameters and cached.

A :class:`Primitive` is a created oneDNN primitive together with the memory descriptor of each of
its arguments; :meth:`Primitive.execute` binds NumPy arrays (or raw buffers) to those arguments and
runs it on this thread's stream. Primitives use a scratchpad that the caller owns (oneDNN's
``scratchpad_mode_user``): each thread keeps one growing buffer, so a primitive may run on several
threads at once and no call allocates its scratch memory anew.

A :class:`Plan` runs a primitive on plain (row-major) arrays through reorders to and from the
layouts the primitive chose. :data:`CACHE` keeps built plans by a key of shapes and parameters; a
plan that oneDNN does not implement (or rejects) is cached as None, and callers fall back to NumPy.
"""
from __future__ import annotations

import collections
import ctypes
import threading

import numpy

from kusari.onednn import layout
from kusari.onednn.library import Library, OneDNNError

F32 = 3
FORMAT_ANY = 1
_DATA_TYPE = {numpy.dtype(numpy.float32): F32}
ARG_SCRATCHPAD = 80
_QUERY_SRC_MD, _QUERY_DST_MD, _QUERY_SCRATCHPAD_MD = 129, 133, 136
_SCRATCHPAD_MODE_USER = 1
MAX_NDIMS = 12
# Statuses of a primitive descriptor that oneDNN does not offer for these shapes and settings:
# invalid arguments, unimplemented.
REJECTED = (2, 3)


def data_type(dtype) -> int | None:
    """oneDNN's data type code for a NumPy dtype, or None when kusari does not run it on oneDNN."""
    return _DATA_TYPE.get(numpy.dtype(dtype))


def dims(values) -> ctypes.Array:
    """A ``dnnl_dims_t`` (12 int64) holding ``values``."""
    return (ctypes.c_int64 * MAX_NDIMS)(*values)


class MemoryDesc:
    """An owned ``dnnl_memory_desc_t`` for ``shape`` of ``dtype``: row-major (NumPy's C order) by
    default, channels-last (:mod:`kusari.onednn.layout`) when ``channels_last``, else in the layout
    of the format tag ``tag`` (``FORMAT_ANY``: the primitive chooses)."""

    __slots__ = ("lib", "handle")

    def __init__(self, lib: Library, shape, dtype, tag=None, channels_last=False):
        self.lib = lib
        self.handle = ctypes.c_void_p()
        if tag is None:
            strides = layout.strides(shape, channels_last)
            lib.call("dnnl_memory_desc_create_with_strides", lib.memory_desc_create_with_strides,
                     ctypes.byref(self.handle), len(shape), dims(shape), data_type(dtype), dims(strides))
        else:
            lib.call("dnnl_memory_desc_create_with_tag", lib.memory_desc_create_with_tag,
                     ctypes.byref(self.handle), len(shape), dims(shape), data_type(dtype), tag)

    def __del__(self):
        if self.handle:
            self.lib.memory_desc_destroy(self.handle)


class Attr:
    """An owned ``dnnl_primitive_attr_t`` asking for a user-owned scratchpad (see :func:`scratchpad`)."""

    __slots__ = ("lib", "handle")

    def __init__(self, lib: Library):
        self.lib = lib
        self.handle = ctypes.c_void_p()
        lib.call("dnnl_primitive_attr_create", lib.primitive_attr_create, ctypes.byref(self.handle))
        lib.call("dnnl_primitive_attr_set_scratchpad_mode", lib.primitive_attr_set_scratchpad_mode,
                 self.handle, _SCRATCHPAD_MODE_USER)

    def __del__(self):
        if self.handle:
            self.lib.primitive_attr_destroy(self.handle)


class PrimitiveDesc:
    """An owned ``dnnl_primitive_desc_t`` made by ``create(byref(pd), *args)``; its ``md(query)`` views
    stay valid while it lives."""

    __slots__ = ("lib", "handle")

    def __init__(self, lib: Library, name: str, create, *args):
        self.lib = lib
        self.handle = ctypes.c_void_p()
        lib.call(name, create, ctypes.byref(self.handle), *args)

    def md(self, query: int, index: int = 0) -> ctypes.c_void_p:
        """The memory descriptor the primitive chose for ``query`` (a ``dnnl_query_*_md`` code)."""
        return ctypes.c_void_p(self.lib.primitive_desc_query_md(self.handle, query, index))

    def __del__(self):
        if self.handle:
            self.lib.primitive_desc_destroy(self.handle)


class Primitive:
    """A created primitive, and per argument (``DNNL_ARG_*`` code) the memory descriptor it expects.

    ``sizes[arg]`` is the number of bytes of that argument's buffer: ``array.nbytes`` for plain
    layouts, possibly more for oneDNN's blocked ones (which pad the channels).
    """

    __slots__ = ("lib", "pd", "handle", "mds", "sizes", "scratch_md", "scratch_size", "_keep")

    def __init__(self, lib: Library, pd: PrimitiveDesc, mds: dict):
        self.lib = lib
        self.pd = pd
        self._keep = [md for md in mds.values() if isinstance(md, MemoryDesc)]  # descriptors we own
        self.mds = {arg: pd.md(md) if isinstance(md, int) else md.handle for arg, md in mds.items()}
        self.sizes = {arg: lib.memory_desc_get_size(md) for arg, md in self.mds.items()}
        self.scratch_md = pd.md(_QUERY_SCRATCHPAD_MD)
        self.scratch_size = lib.memory_desc_get_size(self.scratch_md)
        self.handle = ctypes.c_void_p()
        lib.call("dnnl_primitive_create", lib.primitive_create, ctypes.byref(self.handle), pd.handle)

    def execute(self, buffers: dict) -> None:
        """Run on this thread's stream with ``buffers[arg]`` (a C-contiguous NumPy array of the
        expected layout, or an address) bound to each argument, and wait for it to finish."""
        lib = self.lib
        args = (_ExecArg * (len(buffers) + 1))()
        memories = []
        try:
            for slot, (arg, buffer) in zip(args, buffers.items()):
                slot.arg = arg
                slot.memory = _memory(lib, self.mds[arg], buffer, memories)
            slot = args[len(buffers)]
            slot.arg = ARG_SCRATCHPAD
            slot.memory = _memory(lib, self.scratch_md, scratchpad(self.scratch_size), memories)
            lib.call("dnnl_primitive_execute", lib.primitive_execute, self.handle, lib.stream(),
                     len(args), args)
        finally:
            for memory in memories:
                lib.memory_destroy(memory)

    def __del__(self):
        if self.handle:
            self.lib.primitive_destroy(self.handle)


class _ExecArg(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_int), ("memory", ctypes.c_void_p)]


def _memory(lib, md, buffer, owned):
    memory = ctypes.c_void_p()
    address = buffer if isinstance(buffer, int) else buffer.ctypes.data
    lib.call("dnnl_memory_create", lib.memory_create, ctypes.byref(memory), md, lib.engine, address)
    owned.append(memory)
    return memory


_local = threading.local()


def _grown(slot, nbytes: int) -> numpy.ndarray:
    """This thread's buffer number ``slot`` (grown to at least ``nbytes`` plus alignment slack)."""
    buffers = getattr(_local, "buffers", None)
    if buffers is None:
        buffers = _local.buffers = {}
    buffer = buffers.get(slot)
    if buffer is None or buffer.nbytes < nbytes + 64:
        buffer = buffers[slot] = numpy.empty(max(nbytes + 64, 4096), numpy.uint8)
    return buffer


def temporary(slot, nbytes: int) -> numpy.ndarray:
    """A 64-byte-aligned byte buffer of ``nbytes``: this thread's reusable buffer number ``slot``.

    Reorders go through these instead of fresh arrays: a large fresh array costs a page fault per
    page on first touch (glibc maps big blocks anew each time), a few milliseconds per step of a
    conv net. Its contents are valid until the next call with the same slot on this thread.
    """
    buffer = _grown(slot, nbytes)
    start = -buffer.ctypes.data % 64
    return buffer[start:start + nbytes]


def scratchpad(nbytes: int) -> int:
    """Address of this thread's scratch buffer for primitives, of at least ``nbytes``."""
    return temporary("scratchpad", nbytes).ctypes.data


ARG_FROM, ARG_TO = 1, 17


def reorder(lib: Library, src_md, dst_md) -> Primitive:
    """The primitive copying a buffer of layout ``src_md`` into one of layout ``dst_md`` (raw handles)."""
    attr = Attr(lib)
    pd = PrimitiveDesc(lib, "dnnl_reorder_primitive_desc_create", lib.reorder_primitive_desc_create,
                       src_md, lib.engine, dst_md, lib.engine, attr.handle)
    return Primitive(lib, pd, {ARG_FROM: _QUERY_SRC_MD, ARG_TO: _QUERY_DST_MD})


class Plan:
    """A primitive run on NumPy arrays (row-major or channels-last), with the reorders to and from the
    layouts it chose.

    ``plain[arg]`` is the memory descriptor of each argument given as a NumPy array;
    ``outputs`` names the arguments the primitive writes. An argument whose chosen layout is not
    the plain one goes through a temporary buffer and a reorder (before the run for inputs,
    after it for outputs).
    """

    __slots__ = ("primitive", "outputs", "_to", "_keep")

    def __init__(self, lib: Library, primitive: Primitive, plain: dict, outputs=()):
        self.primitive = primitive
        self.outputs = frozenset(outputs)
        self._keep = list(plain.values())
        self._to = {}
        for arg, md in plain.items():
            chosen = primitive.mds[arg]
            if not lib.memory_desc_equal(chosen, md.handle):
                self._to[arg] = (reorder(lib, chosen, md.handle) if arg in self.outputs
                                 else reorder(lib, md.handle, chosen))

    def run(self, arrays: dict) -> None:
        """Execute with ``arrays[arg]`` bound to each argument (NumPy arrays in the layout of their
        descriptor, or buffers of the primitive's own layout for arguments without one)."""
        bound = {}
        for slot, (arg, array) in enumerate(arrays.items()):
            convert = self._to.get(arg)
            if convert is None:
                bound[arg] = array
                continue
            temporary_buffer = temporary(slot, self.primitive.sizes[arg])
            if arg not in self.outputs:
                convert.execute({ARG_FROM: array, ARG_TO: temporary_buffer})
            bound[arg] = temporary_buffer
        self.primitive.execute(bound)
        for arg in self.outputs & self._to.keys():
            self._to[arg].execute({ARG_FROM: bound[arg], ARG_TO: arrays[arg]})


class Cache:
    """Least-recently-used map from a key (shapes, dtype, parameters) to a built primitive or None."""

    def __init__(self, size: int = 512):
        self._size = size
        self._entries = collections.OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, build):
        """The entry under ``key``, built by ``build()`` on first use; None if oneDNN rejected it."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        try:
            value = build()
        except OneDNNError as e:
            if e.status not in REJECTED:
                raise
            value = None
        with self._lock:
            self._entries[key] = value
            if len(self._entries) > self._size:
                self._entries.popitem(last=False)
        return value

    def clear(self):
        with self._lock:
            self._entries.clear()


CACHE = Cache()
