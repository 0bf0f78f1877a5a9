"""TimeTrigger: fires every ``period`` seconds of the trainer's elapsed time."""


class TimeTrigger:
    """Fires when ``trainer.elapsed_time`` passes the next multiple of ``period`` (seconds)."""

    def __init__(self, period):
        if not period > 0:
            raise ValueError(f"TimeTrigger: period must be positive seconds, got {period!r}")
        self._period = float(period)
        self._next_time = self._period

    def __call__(self, trainer) -> bool:
        if self._next_time <= trainer.elapsed_time:
            self._next_time += self._period
            return True
        return False

    def serialize(self, serializer):
        self._next_time = float(serializer("_next_time", self._next_time))
