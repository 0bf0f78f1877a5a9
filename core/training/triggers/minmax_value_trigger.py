"""BestValueTrigger, MaxValueTrigger, MinValueTrigger: fire when an observed value reaches a new best."""
import operator

from kusari import reporter
from kusari.training.trigger import get_trigger
from kusari.training._optional import serialize_optional


class BestValueTrigger:
    """Fires at the end of each interval whose mean of ``observation[key]`` beats the best so far.

    Parameters
    ----------
    key : str
        the observation to watch (e.g. ``'validation/main/loss'``).
    compare : callable
        ``compare(best, current) -> bool``, True when ``current`` is better.
    trigger
        the interval over which values are averaged ((period, unit) or callable).
    """

    def __init__(self, key, compare, trigger=(1, "epoch")):
        self._key = key
        self._compare = compare
        self._interval_trigger = get_trigger(trigger)
        self._best_value = None
        self._summary = reporter.DictSummary()

    def __call__(self, trainer) -> bool:
        observation = trainer.observation
        if self._key in observation:
            self._summary.add({self._key: observation[self._key]})
        if not self._interval_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        self._summary = reporter.DictSummary()
        if self._key not in stats:
            return False
        value = float(stats[self._key])
        if self._best_value is None or self._compare(self._best_value, value):
            self._best_value = value
            return True
        return False

    def serialize(self, serializer):
        if hasattr(self._interval_trigger, "serialize"):
            self._interval_trigger.serialize(serializer["interval_trigger"])
        self._summary.serialize(serializer["summary"])
        self._best_value = serialize_optional(serializer, "_best_value", self._best_value)


class MaxValueTrigger(BestValueTrigger):
    """Fires when the interval mean of ``observation[key]`` is the largest so far."""

    def __init__(self, key, trigger=(1, "epoch")):
        super().__init__(key, operator.lt, trigger)


class MinValueTrigger(BestValueTrigger):
    """Fires when the interval mean of ``observation[key]`` is the smallest so far."""

    def __init__(self, key, trigger=(1, "epoch")):
        super().__init__(key, operator.gt, trigger)
