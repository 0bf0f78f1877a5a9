"""IntervalTrigger: fires every ``period`` epochs or iterations."""
from kusari.training.triggers._unit import check_unit, position


class IntervalTrigger:
    """Fires each time the updater crosses a multiple of ``period`` in ``unit``.

    Parameters
    ----------
    period : int or float
        interval; fractional epochs are allowed.
    unit : str
        ``'epoch'`` or ``'iteration'``.

    It remembers the position of its last call (and serializes it): it fires when a multiple of
    ``period`` lies in (last position, current position], also when not called every iteration.
    """

    def __init__(self, period, unit):
        check_unit("IntervalTrigger", unit)
        if not period > 0:
            raise ValueError(f"IntervalTrigger: period must be positive, got {period!r}")
        self.period = period
        self.unit = unit
        self._previous = 0

    def __call__(self, trainer) -> bool:
        previous, current = self._previous, position(trainer.updater, self.unit)
        self._previous = current
        return previous // self.period != current // self.period

    def get_training_length(self):
        """``(period, unit)``: the length of training when this trigger stops it."""
        return self.period, self.unit

    def serialize(self, serializer):
        self._previous = float(serializer("_previous", float(self._previous)))

    def __str__(self):
        return f"IntervalTrigger({self.period}, {self.unit!r})"
