"""Saving and loading Links and Optimizers: NPZ (Chainer-compatible layout) and HDF5."""
from kusari.serializers.hdf5 import HDF5Deserializer, HDF5Serializer, load_hdf5, save_hdf5  # NOQA
from kusari.serializers.npz import DictionarySerializer, NpzDeserializer, load_npz, save_npz  # NOQA
