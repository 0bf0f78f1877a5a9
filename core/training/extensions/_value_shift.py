"""ValueShift: the base of the schedule extensions that set an optimizer attribute (e.g. ``lr``) from a step count."""
from kusari.training import extension
from kusari.training._optional import serialize_optional


class ValueShift(extension.Extension):
    """Sets ``optimizer.<attr>`` to ``compute(t)`` after every call, ``t`` counting the calls.

    Subclasses implement ``compute(t)``. ``initialize`` sets the value for ``t`` (0 on a fresh run,
    the last value on a resumed one); ``init`` is read from the optimizer when the subclass needs it
    and it is None. The optimizer is ``optimizer`` or the trainer's ``'main'`` one.
    """

    needs_init = True

    def __init__(self, attr, init=None, optimizer=None):
        if not isinstance(attr, str):
            raise TypeError(f"{type(self).__name__}: attr must be a str, got {type(attr).__name__}")
        self._attr = attr
        self._init = init
        self._optimizer = optimizer
        self._t = 0
        self._last_value = None

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer("main")

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self.needs_init and self._init is None:
            self._init = getattr(optimizer, self._attr)
        value = self._last_value if self._last_value is not None else self.compute(self._t)
        setattr(optimizer, self._attr, value)

    def __call__(self, trainer):
        self._t += 1
        value = self.compute(self._t)
        setattr(self._get_optimizer(trainer), self._attr, value)
        self._last_value = value

    def compute(self, t) -> float:
        """The value after ``t`` calls."""
        raise NotImplementedError

    def serialize(self, serializer):
        self._t = int(serializer("_t", self._t))
        self._last_value = serialize_optional(serializer, "_last_value", self._last_value)
        if self.needs_init:
            self._init = serialize_optional(serializer, "_init", self._init)


def clip_to_target(value, target, increasing):
    """``value`` bounded by ``target`` from above when the schedule increases, from below otherwise."""
    if target is None:
        return value
    return min(value, target) if increasing else max(value, target)
