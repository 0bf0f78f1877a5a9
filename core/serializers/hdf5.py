"""HDF5 (de)serialization (needs h5py, the ``kusari[hdf5]`` extra): groups mirror the key paths."""
import numpy

from kusari import backend
from kusari.serializer import Serializer
from kusari.serializers._load import KeyedDeserializer
from kusari.utils.atomic_write import open_for_write
from kusari.variable import Variable


def _h5py():
    try:
        import h5py
    except ImportError as e:
        raise ImportError("kusari.serializers: HDF5 support needs h5py; "
                          "run `pip install 'kusari[hdf5]'`") from e
    return h5py


class HDF5Serializer(Serializer):
    """Write values as datasets of an h5py group.

    Parameters
    ----------
    group : h5py.Group
        Where to write.
    compression : int
        gzip level 0-9 for array datasets (0 disables compression).
    """

    def __init__(self, group, compression: int = 4):
        _h5py()
        if not 0 <= compression <= 9:
            raise ValueError(f"HDF5Serializer: compression must be in 0..9, got {compression}")
        self.group = group
        self.compression = compression

    def __getitem__(self, key):
        return HDF5Serializer(self.group.require_group(key.strip("/")), self.compression)

    def __call__(self, key, value):
        """Write ``value`` under ``key``; ``None`` is written as Chainer writes it, an empty dataset."""
        array = value.array if isinstance(value, Variable) else value
        key = key.lstrip("/")
        if array is None:
            self.group.create_dataset(key, data=_h5py().Empty("f"))
            return value
        array = backend.CpuDevice().send_array(array)
        options = {"compression": "gzip", "compression_opts": self.compression} \
            if self.compression and array.size > 1 else {}
        self.group.create_dataset(key, data=array, **options)
        return value


class HDF5Deserializer(KeyedDeserializer):
    """Read values from an h5py group; ``path``, ``strict``, ``ignore_names`` as NpzDeserializer.

    Loading through :meth:`load` is all or nothing (see KeyedDeserializer). An empty dataset
    (``h5py.Empty``) is Chainer's None: the target keeps its own value and the call returns None.
    """

    def __init__(self, group, path: str = "", strict: bool = True, ignore_names=None):
        _h5py()
        super().__init__(path, strict, ignore_names)
        self.group = group

    def _child(self, path):
        return HDF5Deserializer(self.group, path, self.strict, self.ignore_names)

    def _where(self):
        return self.group.file.filename

    def _contains(self, key):
        return key in self.group

    def _read(self, key):
        dataset = self.group[key]
        if dataset.shape is None:
            return None
        try:
            return numpy.asarray(dataset[()])
        except OSError as e:
            raise OSError(self._error(key, f"cannot be read ({e})")) from e


def save_hdf5(filename, obj, compression: int = 4) -> None:
    """Save ``obj`` to an HDF5 file (path written atomically, or a binary file object)."""
    h5py = _h5py()
    with open_for_write(filename) as f, h5py.File(f, "w") as h5:
        HDF5Serializer(h5, compression).save(obj)


def load_hdf5(filename, obj, path: str = "", strict: bool = True, ignore_names=None) -> None:
    """Load ``obj``'s values from an HDF5 file (path or file object), all or nothing.

    Every dataset ``obj`` asks for is read and checked (presence, shape, dtype) before the first
    value is written; on any error ``obj`` is left as it was and the error names the file and key.
    """
    h5py = _h5py()
    with h5py.File(filename, "r") as h5:
        HDF5Deserializer(h5, path, strict, ignore_names).load(obj)
