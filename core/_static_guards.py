"""static_graph's data-read guards: a Python-side read of a traced value's data marks the trace data-dependent.

A replay reruns the recorded ops only; Python code that looked at the data while tracing (a branch
on a value, ``float(loss.array)``, NumPy computed from an input) would keep its traced result. So
while a trace records, reading the data of a traced value, outside the ops and ``static_code``,
is noted: the trace is not replayed (``static_graph`` runs the function eagerly from then on), or
with ``config.static_graph_strict`` the read raises at once.

Traced values are the call's inputs and the outputs of recorded ops (not Parameters, whose
initialization checks read them; not gradients). Their NumPy arrays reach the Python side as
``TracedArray`` views: a NumPy array given to the call, and a traced Variable's ``array`` /
``data``. Passing such a view on (to an op, a ``static_code`` function, as a gradient seed or a
result) is not a read; computing with it in NumPy (ufuncs, their reductions, array functions),
``float()``, ``int()``, ``bool()``, ``item()``, ``tolist()``, scalar indexing and iteration are.
A traced Variable's ``bool()`` and ``item()`` are reads too, and on the GPU so is its ``array``.

Not seen: ``numpy.array(x)`` / ``numpy.asarray(x)`` of a view (NumPy copies it without asking the
view), and reads of Parameters or gradients.

The Variable accessors are swapped for their guarded twins only while some thread records, so
guards cost nothing outside tracing and nothing on replay.
"""
import os
import sys
import threading

import numpy

from kusari._tracing import trace_hook
from kusari.variable import Variable

_NUMPY_DIR = os.path.dirname(numpy.__file__)
_THIS_FILE = __file__


def message(name: str, site: str, what: str) -> str:
    """The warning (and strict-mode error) for a data read at ``site`` while tracing ``name``."""
    return (f"static_graph: {name} read the data of a traced value ({what}) at {site}; a replay "
            f"would reuse the value seen while tracing, so {name} runs eagerly from now on. Compute "
            "it with kusari.functions ops, or move the Python-side work into a @static_code "
            "function (it reruns at every call); config.static_graph_strict = True makes this an error")


def _read_site() -> str:
    """``file:line`` of the code that made the read: the first frame outside NumPy and this module."""
    frame = sys._getframe(2)
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename != _THIS_FILE and not filename.startswith(_NUMPY_DIR):
            return f"{filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>"


def _watching_trace():
    """The trace recording in this thread if it watches reads (``is_traced``, ``traced_view``,
    ``note_data_read``), else None; also None while it runs an op or a ``static_code`` function."""
    trace = trace_hook.current()
    return trace if hasattr(trace, "note_data_read") else None


def _note(array, what: str, traced_array: bool) -> None:
    trace = _watching_trace()
    if trace is not None and (traced_array or trace.is_traced(array)):
        trace.note_data_read(what, _read_site())


# Variable accessors ----------------------------------------------------------------------------
_PLAIN = {name: Variable.__dict__[name] for name in ("array", "data", "grad", "__bool__", "item")}


def _get_array(self):
    data = self._data
    if data is None or type(data) is TracedArray:
        return data
    trace = _watching_trace()
    if trace is None or not trace.is_traced(data):
        return data
    if isinstance(data, numpy.ndarray):
        return trace.traced_view(data)
    _note(data, "Variable.array", False)   # a GPU array: no view watches it, so the access counts
    return data


def _bool(self):
    _note(self._data, "bool(Variable)", False)
    return bool(self._data)


def _item(self):
    _note(self._data, "Variable.item()", False)
    return self._data.item()


def _set_grad(self, g):
    _PLAIN["grad"].fset(self, plain(g))   # a seed given as a traced view: the gradient is a plain array


_guarded_array = property(_get_array, _PLAIN["array"].fset, doc=_PLAIN["array"].__doc__)
_GUARDED = {"array": _guarded_array, "data": _guarded_array, "__bool__": _bool, "item": _item,
            "grad": property(_PLAIN["grad"].fget, _set_grad, doc=_PLAIN["grad"].__doc__)}

_lock = threading.Lock()
_n_enabled = 0


def enable() -> None:
    """Start watching reads (one call per trace that starts recording)."""
    global _n_enabled
    with _lock:
        _n_enabled += 1
        if _n_enabled == 1:
            for name, attr in _GUARDED.items():
                setattr(Variable, name, attr)


def disable() -> None:
    """Stop watching (one call per trace that stops, failing or not)."""
    global _n_enabled
    with _lock:
        _n_enabled -= 1
        if _n_enabled == 0:
            for name, attr in _PLAIN.items():
                setattr(Variable, name, attr)


# NumPy inputs ----------------------------------------------------------------------------------
def plain(x):
    """``x`` without the ``TracedArray`` view (other values unchanged)."""
    return x.view(numpy.ndarray) if isinstance(x, TracedArray) else x


class TracedArray(numpy.ndarray):
    """A view of a NumPy array given to a traced call: reading its data outside ops is noted.

    Ops strip it (``plain``); what NumPy computes from it comes back as plain arrays.
    """

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        _note(self, f"numpy.{ufunc.__name__}" + ("" if method == "__call__" else f".{method}"), True)
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple([plain(o) for o in out])
        return getattr(ufunc, method)(*[plain(x) for x in inputs], **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        _note(self, f"numpy.{func.__name__}", True)
        return super().__array_function__(func, types, args, kwargs)

    def __getitem__(self, key):
        item = super().__getitem__(key)
        if not isinstance(item, numpy.ndarray):
            _note(self, "an element of a traced array", True)
        return item

    def __iter__(self):
        if self.ndim <= 1:
            _note(self, "iteration over a traced array", True)
        return super().__iter__()

    def __float__(self):
        _note(self, "float()", True)
        return float(plain(self))

    def __int__(self):
        _note(self, "int()", True)
        return int(plain(self))

    def __index__(self):
        _note(self, "operator.index()", True)
        return plain(self).__index__()

    def __bool__(self):
        _note(self, "bool()", True)
        return bool(plain(self))

    def item(self, *args):
        _note(self, "item()", True)
        return plain(self).item(*args)

    def tolist(self):
        _note(self, "tolist()", True)
        return plain(self).tolist()

    def tobytes(self, *args, **kwargs):
        _note(self, "tobytes()", True)
        return plain(self).tobytes(*args, **kwargs)

    def copy(self, *args, **kwargs):
        _note(self, "copy()", True)
        return plain(self).copy(*args, **kwargs)

    def astype(self, *args, **kwargs):
        _note(self, "astype()", True)
        return plain(self).astype(*args, **kwargs)


def traced_view(x):
    """``x`` as the traced call sees it: a NumPy array becomes a ``TracedArray`` view."""
    return x.view(TracedArray) if type(x) is numpy.ndarray else x

