"""The serialization protocol: ``serializer[key]`` descends, ``serializer(key, value)`` saves or loads.

Saving returns ``value``. Loading copies into ``value`` in place when it is an array, returns a new
array when ``value`` is None, and returns the stored scalar otherwise; where the file stores None
(Chainer's "no value") loading leaves ``value`` as it is and returns None.

``Deserializer.load(obj)`` of the NPZ and HDF5 deserializers is all or nothing: it may call
``obj.serialize`` twice, first in a check pass in which every call returns the value passed in and
nothing is written, then to write. ``is_loading`` is True in both.
"""


class AbstractSerializer:
    def __getitem__(self, key):
        raise NotImplementedError

    def __call__(self, key, value):
        raise NotImplementedError


class Serializer(AbstractSerializer):
    """Base of writers (``save`` direction)."""

    is_loading = False

    def save(self, obj):
        obj.serialize(self)


class Deserializer(AbstractSerializer):
    """Base of readers (``load`` direction)."""

    is_loading = True

    def load(self, obj):
        obj.serialize(self)
