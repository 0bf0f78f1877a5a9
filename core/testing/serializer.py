"""Round-trip an object through a serializer in a temporary directory (Chainer's ``save_and_load*``)."""
import os
import tempfile


def save_and_load(src, dst, filename: str, saver, loader):
    """``saver(path, src)`` then ``loader(path, dst)`` with ``path`` = ``filename`` in a temporary directory."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, filename)
        saver(path, src)
        loader(path, dst)


def save_and_load_npz(src, dst):
    """Save ``src`` to an NPZ file and load it into ``dst``."""
    from kusari import serializers
    save_and_load(src, dst, "tmp.npz", serializers.save_npz, serializers.load_npz)


def save_and_load_hdf5(src, dst):
    """Save ``src`` to an HDF5 file and load it into ``dst`` (needs h5py)."""
    from kusari import serializers
    save_and_load(src, dst, "tmp.h5", serializers.save_hdf5, serializers.load_hdf5)
