"""MicroAverage: report sum(numerator) / sum(denominator) over an interval (e.g. accuracy over examples)."""
from kusari import reporter
from kusari.training import extension
from kusari.training.trigger import get_trigger


def _to_float(value):
    return reporter._to_float(getattr(value, "array", value))


class MicroAverage(extension.Extension):
    """Accumulates ``observation[numerator_key]`` and ``observation[denominator_key]`` every
    iteration and reports their ratio as ``result_key`` when ``trigger`` fires.

    Unlike the mean of per-batch ratios, this weights each batch by its denominator (e.g. correct
    answers over all examples, whatever the batch sizes).
    """

    priority = extension.PRIORITY_EDITOR

    def __init__(self, numerator_key, denominator_key, result_key, trigger=(1, "epoch")):
        self._numerator_key = numerator_key
        self._denominator_key = denominator_key
        self._result_key = result_key
        self._trigger = get_trigger(trigger)
        self._numerator = 0.0
        self._denominator = 0.0

    def __call__(self, trainer):
        observation = trainer.observation
        if self._numerator_key in observation and self._denominator_key in observation:
            self._numerator += _to_float(observation[self._numerator_key])
            self._denominator += _to_float(observation[self._denominator_key])
        if self._trigger(trainer):
            if self._denominator:
                reporter.report({self._result_key: self._numerator / self._denominator})
            self._numerator = 0.0
            self._denominator = 0.0

    def serialize(self, serializer):
        if hasattr(self._trigger, "serialize"):
            self._trigger.serialize(serializer["_trigger"])
        self._numerator = float(serializer("_numerator", self._numerator))
        self._denominator = float(serializer("_denominator", self._denominator))
