"""NPZ (de)serialization with Chainer's key layout (``l1/W``, ``l1/W/m``, ``t``, ``epoch``)."""
import zipfile

import numpy
from numpy.lib import format as npy_format

from kusari import backend
from kusari.serializer import Serializer
from kusari.serializers import _chainer_none
from kusari.serializers._load import KeyedDeserializer
from kusari.serializers._npz_read import read_npz
from kusari.utils.atomic_write import open_for_write
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

        ``None`` (an uninitialized parameter, an unset persistent) is stored as Chainer stores it:
        a 0-d object array holding None.
        """
        array = value.array if isinstance(value, Variable) else value
        if array is None:
            stored = _chainer_none.none_array()
        else:
            host = backend.CpuDevice().send_array(array)
            # a snapshot: later in-place updates of the source must not leak into it
            stored = host.copy() if host is array else host
        self.target[self.path + key.lstrip("/")] = stored
        return value


class NpzDeserializer(KeyedDeserializer):
    """Load values from an NPZ mapping (a dict of arrays, e.g. from DictionarySerializer).

    Loading through :meth:`load` is all or nothing (see KeyedDeserializer). A 0-d object array
    holding None is Chainer's "no value": the target keeps its own value and the call returns None.
    Any other object array is refused.

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

    def _where(self):
        return getattr(self.npz, "filename", "")

    def _contains(self, key):
        return key in self.npz

    def _read(self, key):
        data = numpy.asarray(self.npz[key])
        if not data.dtype.hasobject:
            return data
        if _chainer_none.is_none_array(data):
            return None
        raise ValueError(self._error(key, f"is an object array (dtype {data.dtype}, shape {data.shape}); "
                                          f"object arrays are refused because unpickling them can run "
                                          f"arbitrary code"))


def save_npz(file, obj, compression: bool = True) -> None:
    """Save ``obj`` (a Link, an Optimizer, anything with ``serialize``) to an NPZ file.

    ``file`` is a path (written atomically) or a binary file object. A None value is written as
    Chainer writes it (the pickle bytes of ``numpy.asarray(None)`` from NumPy 1.x, which Chainer
    reads); any other object value is refused.
    """
    target = {}
    DictionarySerializer(target).save(obj)
    for key, array in target.items():
        if array.dtype.hasobject and not _chainer_none.is_none_array(array):
            raise ValueError(f"save_npz: {key!r} is an object array (dtype {array.dtype}, shape "
                             f"{array.shape}); only numeric, boolean and string values or None can be saved")
    with open_for_write(file) as f:
        _write_members(f, target, compression)


def _write_members(f, arrays, compression):
    """Write ``arrays`` as numpy.savez does: one ``key.npy`` member each."""
    method = zipfile.ZIP_DEFLATED if compression else zipfile.ZIP_STORED
    with zipfile.ZipFile(f, "w", compression=method, allowZip64=True) as archive:
        for key, array in arrays.items():
            if _chainer_none.is_none_array(array):
                archive.writestr(key + ".npy", _chainer_none.NONE_MEMBER)
                continue
            with archive.open(key + ".npy", "w", force_zip64=True) as member:
                npy_format.write_array(member, array, allow_pickle=False)


def load_npz(file, obj, path: str = "", strict: bool = True, ignore_names=None) -> None:
    """Load ``obj``'s values from an NPZ file (path or file object) written by save_npz or Chainer.

    All or nothing: every member under ``path`` is read and checked first (zip CRC, .npy format;
    object arrays other than Chainer's None are refused unread), then every key ``obj`` asks for is
    checked (presence, shape, dtype) before the first value is written. On any error ``obj`` is left
    as it was and the error names the file and the key.

    ``path`` selects a sub-tree (e.g. ``'updater/model:main/'``); see NpzDeserializer for the rest.

    Raises
    ------
    OSError
        The file is unreadable or a member is corrupt.
    KeyError
        ``strict`` and a key that ``obj`` asks for is missing.
    ValueError
        A shape or dtype does not match, or a member is a refused object array.
    """
    arrays = read_npz(file, prefix=path)
    NpzDeserializer(arrays, path=path, strict=strict, ignore_names=ignore_names).load(obj)
