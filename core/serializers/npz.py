"""NPZ (de)serialization with Chainer's key layout (``l1/W``, ``l1/W/m``, ``t``, ``epoch``)."""
import numpy

from kusari import backend
from kusari.serializer import Serializer
from kusari.utils.atomic_write import open_for_write
from kusari.serializers._load import KeyedDeserializer
from kusari.variable import Variable


class DictionarySerializer(Serializer):
    """Collect values into a flat dict ``{path + key: numpy array}``.

    Parameters
    ----------
    target : dict, optional
        The dict to fill (a new one by default).
    path : str
        Prefix of every key (ends with ``/`` unless empty).
    """

    def __init__(self, target=None, path: str = ""):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key):
        return DictionarySerializer(self.target, self.path + key.strip("/") + "/")

    def __call__(self, key, value):
        """Store a copy of ``value`` (array, Variable or scalar) under ``path + key``; returns ``value``.

        ``None`` (an uninitialized parameter) is not stored.
        """
        array = value.array if isinstance(value, Variable) else value
        if array is not None:
            host = backend.CpuDevice().send(array)
            # a snapshot: later in-place updates of the source must not leak into it
            self.target[self.path + key.lstrip("/")] = host.copy() if host is array else host
        return value


class NpzDeserializer(KeyedDeserializer):
    """Load values from an NPZ mapping (``numpy.load`` result or any dict of arrays).

    Parameters
    ----------
    npz : mapping
        Key to array.
    path : str
        Prefix of every key.
    strict : bool
        Raise KeyError for a key that is missing from ``npz``; otherwise keep the current value.
    ignore_names : list of str or callable, optional
        Keys (full paths) to skip, or a predicate on them.
    """

    def __init__(self, npz, path: str = "", strict: bool = True, ignore_names=None):
        super().__init__(path, strict, ignore_names)
        self.npz = npz

    def _child(self, path):
        return NpzDeserializer(self.npz, path, self.strict, self.ignore_names)

    def _contains(self, key):
        return key in self.npz

    def _read(self, key):
        return numpy.asarray(self.npz[key])


def save_npz(file, obj, compression: bool = True) -> None:
    """Save ``obj`` (a Link, an Optimizer, anything with ``serialize``) to an NPZ file.

    ``file`` is a path (written atomically) or a binary file object.
    """
    target = {}
    DictionarySerializer(target).save(obj)
    with open_for_write(file) as f:
        (numpy.savez_compressed if compression else numpy.savez)(f, **target)


def load_npz(file, obj, path: str = "", strict: bool = True, ignore_names=None) -> None:
    """Load ``obj``'s values from an NPZ file (path or file object) written by save_npz or Chainer.

    ``path`` selects a sub-tree (e.g. ``'updater/model:main/'``); see NpzDeserializer for the rest.
    """
    with numpy.load(file, allow_pickle=False) as npz:
        NpzDeserializer(npz, path=path, strict=strict, ignore_names=ignore_names).load(obj)
