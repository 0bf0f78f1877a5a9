"""LinearShift: move an optimizer attribute linearly between two values over a range of calls."""
from kusari.training.extensions._value_shift import ValueShift


class LinearShift(ValueShift):
    """``value_range[0]`` until call ``time_range[0]``, then linear to ``value_range[1]`` at call
    ``time_range[1]``, constant after.

    Parameters
    ----------
    attr : str
        optimizer attribute, e.g. ``'lr'``.
    value_range : tuple
        ``(v1, v2)``.
    time_range : tuple
        ``(t1, t2)`` with ``t1 < t2`` (counted in calls, usually iterations).
    optimizer
        the optimizer; the trainer's ``'main'`` one when None.
    """

    needs_init = False

    def __init__(self, attr, value_range, time_range, optimizer=None):
        t1, t2 = time_range
        if not t1 < t2:
            raise ValueError(f"LinearShift: time_range must satisfy t1 < t2, got {tuple(time_range)}")
        super().__init__(attr, None, optimizer)
        self._value_range = tuple(value_range)
        self._time_range = (t1, t2)

    def compute(self, t):
        (v1, v2), (t1, t2) = self._value_range, self._time_range
        if t <= t1:
            return v1
        if t >= t2:
            return v2
        return v1 + (v2 - v1) * (t - t1) / (t2 - t1)
