"""The loading half shared by the NPZ and HDF5 deserializers: key lookup, strictness, copy-in."""
import numpy

from kusari import backend
from kusari.serializer import Deserializer
from kusari.variable import Variable


class KeyedDeserializer(Deserializer):
    """Read values stored under ``path + key`` in a mapping-like ``store``.

    Subclasses provide ``_child(path)`` (a deserializer for a sub-path) and ``_contains(key)`` /
    ``_read(key)`` (the stored array as NumPy).
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

    def _ignored(self, key: str) -> bool:
        if self.ignore_names is None:
            return False
        if callable(self.ignore_names):
            return bool(self.ignore_names(key))
        return key in self.ignore_names

    def __getitem__(self, key):
        return self._child(self.path + key.strip("/") + "/")

    def __call__(self, key, value):
        key = self.path + key.lstrip("/")
        if self._ignored(key):
            return value
        if not self._contains(key):
            if self.strict and value is not None:
                raise KeyError(f"{type(self).__name__}: {key!r} is not in the file "
                               f"(pass strict=False to skip missing keys)")
            return value
        data = self._read(key)
        if isinstance(value, Variable):
            if value.array is None:
                value.initialize(data.shape)
            _copy_into(key, value.array, data)
            return value
        if value is None:
            return data.copy()
        if isinstance(value, numpy.ndarray) or backend.is_gpu_array(value):
            _copy_into(key, value, data)
            return value
        return _as_scalar(key, value, data)


def _copy_into(key, dst, data):
    if dst.shape != data.shape:
        raise ValueError(f"deserializer: {key!r} has shape {data.shape} in the file but the "
                         f"target has shape {dst.shape}")
    backend.copyto(dst, data.astype(dst.dtype, copy=False))


def _as_scalar(key, value, data):
    if data.ndim != 0:
        raise ValueError(f"deserializer: {key!r} holds an array of shape {data.shape} but the "
                         f"target is a scalar {value!r}")
    item = data.item()
    if isinstance(value, (bool, numpy.bool_)):
        return bool(item)
    if isinstance(value, (int, numpy.integer)) and isinstance(item, float):
        if not item.is_integer():
            raise ValueError(f"deserializer: {key!r} holds {item} but the target is an int")
        return type(value)(int(item))
    return type(value)(item) if isinstance(value, (int, float, numpy.number)) else item
