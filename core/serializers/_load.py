"""The loading half shared by the NPZ and HDF5 deserializers: a check pass, then the writes (all or nothing)."""
import numpy

from kusari import backend
from kusari.serializer import Deserializer
from kusari.variable import Variable


class _Pass:
    """The state one pass of ``load`` shares between a deserializer and the children it hands out."""

    __slots__ = ("checking", "answered", "last_fresh")

    def __init__(self, checking: bool = False, answered=frozenset()):
        self.checking = checking
        self.answered = answered  # fresh-value requests the check pass answers with the stored value
        self.last_fresh = None  # the last call, if it was a fresh-value request answered with None


class KeyedDeserializer(Deserializer):
    """Read values stored under ``path + key`` in a mapping-like store, all or nothing.

    Subclasses provide ``_child(path)`` (a deserializer for a sub-path), ``_contains(key)``,
    ``_read(key)`` (the stored array as NumPy, or None where the file stores "no value") and
    ``_where()`` (the file's name, for error messages).

    ``load(obj)`` runs ``obj.serialize`` twice. The check pass reads and checks every key the object
    asks for (presence, shape, dtype) and writes nothing: each call returns the value passed in, so
    ``self.t = serializer('t', self.t)`` changes nothing and an uninitialized parameter stays so; it
    raises on the first problem. The apply pass then copies arrays in place and returns the loaded
    values. A key that only the loaded values lead to (``serialize`` branching on what it read) is
    checked when the apply pass reaches it. A ``serialize`` that fails on the None answered to a
    fresh-value request (``serializer(key, None)``) during the check pass is run again with the
    stored value for that key; what it does with that value is its own and is not undone.
    """

    def __init__(self, path: str = "", strict: bool = True, ignore_names=None):
        if ignore_names is not None and not callable(ignore_names):
            names = list(ignore_names)
            if not all(isinstance(n, str) for n in names):
                raise TypeError(f"{type(self).__name__}: ignore_names must be a callable or a list "
                                f"of str, got {ignore_names!r}")
            ignore_names = names
        self.path = path
        self.strict = strict
        self.ignore_names = ignore_names
        self._pass = _Pass()

    def _ignored(self, key: str) -> bool:
        if self.ignore_names is None:
            return False
        if callable(self.ignore_names):
            return bool(self.ignore_names(key))
        return key in self.ignore_names

    def _where(self) -> str:
        return ""

    def _error(self, key: str, message: str) -> str:
        where = self._where()
        return f"{type(self).__name__}: {where + ': ' if where else ''}{key!r} {message}"

    def load(self, obj) -> None:
        """Load ``obj``'s values: a check pass that writes nothing, then the writes."""
        answered = set()
        while True:
            self._pass = _Pass(checking=True, answered=answered)
            try:
                obj.serialize(self)
                break
            except Exception:
                retry = self._pass.last_fresh
                if retry is None or retry in answered:
                    raise
                answered.add(retry)
        self._pass = _Pass()
        obj.serialize(self)

    def __getitem__(self, key):
        child = self._child(self.path + key.strip("/") + "/")
        child._pass = self._pass
        return child

    def __call__(self, key, value):
        check = self._pass
        check.last_fresh = None
        key = self.path + key.lstrip("/")
        if self._ignored(key):
            return value
        if not self._contains(key):
            if self.strict and value is not None:
                raise KeyError(self._error(key, "is not in the file (pass strict=False to skip missing keys)"))
            return value
        data = self._read(key)
        if data is None:  # Chainer's None: no value, the target keeps its own
            return value if check.checking else None
        if value is None:
            if check.checking and key not in check.answered:
                check.last_fresh = key
                return None
            return data.copy()
        write, loaded = self._plan(key, value, data)
        if check.checking:
            return value
        if write is not None:
            write()
        return loaded

    def _plan(self, key, value, data):
        """Check ``data`` against ``value``: (a write to do or None, the value to return)."""
        if isinstance(value, Variable):
            if value.array is None:
                if data.dtype.kind not in "biuf":
                    raise ValueError(self._error(key, f"holds {data.dtype} data, which cannot initialize "
                                                      f"a parameter"))
                return lambda: _initialize(value, data), value
            return self._plan_copy(key, value.array, data), value
        if isinstance(value, numpy.ndarray) or backend.is_gpu_array(value):
            return self._plan_copy(key, value, data), value
        return None, self._as_scalar(key, value, data)

    def _plan_copy(self, key, dst, data):
        if dst.shape != data.shape:
            raise ValueError(self._error(key, f"has shape {data.shape} in the file but the target has "
                                              f"shape {dst.shape}"))
        if not numpy.can_cast(data.dtype, dst.dtype, casting="same_kind"):
            raise ValueError(self._error(key, f"has dtype {data.dtype} in the file but the target has "
                                              f"dtype {dst.dtype}"))
        return lambda: backend.copyto(dst, data.astype(dst.dtype, copy=False))

    def _as_scalar(self, key, value, data):
        if data.ndim != 0:
            raise ValueError(self._error(key, f"holds an array of shape {data.shape} but the target is "
                                              f"a scalar {value!r}"))
        if isinstance(value, (bool, int, float, numpy.number, numpy.bool_)) and data.dtype.kind not in "biuf":
            raise ValueError(self._error(key, f"holds {data.dtype} data but the target is the "
                                              f"{type(value).__name__} {value!r}"))
        item = data.item()
        if isinstance(value, (bool, numpy.bool_)):
            return bool(item)
        if isinstance(value, (int, numpy.integer)) and isinstance(item, float):
            if not item.is_integer():
                raise ValueError(self._error(key, f"holds {item} but the target is an int"))
            return type(value)(int(item))
        return type(value)(item) if isinstance(value, (int, float, numpy.number)) else item


def _initialize(variable, data):
    variable.initialize(data.shape)
    backend.copyto(variable.array, data)
