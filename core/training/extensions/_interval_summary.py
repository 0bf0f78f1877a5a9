"""IntervalSummary: mean observations over a trigger interval (shared by LogReport, PlotReport, TensorBoardReport)."""
from kusari import reporter
from kusari.training.trigger import get_trigger


class IntervalSummary:
    """Accumulates the trainer's observations (only ``keys`` if given) until ``trigger`` fires.

    ``add(trainer)`` returns None, or, when the trigger fires, the means of the interval as Python
    floats plus ``epoch``, ``iteration`` and ``elapsed_time``, and starts a new interval.
    """

    def __init__(self, keys=None, trigger=(1, "epoch")):
        self.keys = None if keys is None else list(keys)
        self.trigger = get_trigger(trigger)
        self._summary = reporter.DictSummary()

    def add(self, trainer):
        observation = trainer.observation
        if self.keys is not None:
            observation = {k: observation[k] for k in self.keys if k in observation}
        self._summary.add(observation)
        if not self.trigger(trainer):
            return None
        stats = {key: float(value) for key, value in self._summary.compute_mean().items()}
        self._summary = reporter.DictSummary()
        updater = trainer.updater
        stats["epoch"] = updater.epoch
        stats["iteration"] = updater.iteration
        stats["elapsed_time"] = trainer.elapsed_time
        return stats

    def serialize(self, serializer):
        if hasattr(self.trigger, "serialize"):
            self.trigger.serialize(serializer["_trigger"])
        self._summary.serialize(serializer["_summary"])
