"""The serialization protocol: ``serializer[key]`` descends, ``serializer(key, value)`` saves or loads.

Saving returns ``value``. Loading copies into ``value`` in place when it is an array, returns a new
array when ``value`` is None, and returns the stored scalar otherwise.
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
