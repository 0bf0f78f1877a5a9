"""ManualScheduleTrigger: fires at a given list of epochs or iterations."""
from kusari.training.triggers._unit import check_unit, position


class ManualScheduleTrigger:
    """Fires when the updater reaches or passes each point of ``points``.

    Parameters
    ----------
    points : int, float or list of them
        the epochs or iterations at which to fire.
    unit : str
        ``'epoch'`` or ``'iteration'``.

    ``finished`` becomes True once the last point has been passed.
    """

    def __init__(self, points, unit):
        check_unit("ManualScheduleTrigger", unit)
        if isinstance(points, (int, float)):
            points = [points]
        points = list(points)
        if not points:
            raise ValueError("ManualScheduleTrigger: points must not be empty")
        self.points = points
        self.unit = unit
        self.finished = False
        self._previous = 0

    def __call__(self, trainer) -> bool:
        previous, current = self._previous, position(trainer.updater, self.unit)
        self._previous = current
        self.finished = current >= max(self.points)
        return any(previous < p <= current for p in self.points)

    def serialize(self, serializer):
        self._previous = float(serializer("_previous", float(self._previous)))
        self.finished = bool(serializer("finished", self.finished))
