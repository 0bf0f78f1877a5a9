"""ExponentialShift: multiply an optimizer attribute by ``rate`` after every call."""
from kusari.training.extensions._value_shift import ValueShift, clip_to_target


class ExponentialShift(ValueShift):
    """``value(t) = init * rate ** t``, bounded by ``target`` (t = number of calls).

    Parameters
    ----------
    attr : str
        optimizer attribute, e.g. ``'lr'``.
    rate : float
        factor per call (> 0).
    init : float
        initial value; the optimizer's current value when None.
    target : float
        a bound not to pass (upper if ``rate > 1``, lower otherwise).
    optimizer
        the optimizer; the trainer's ``'main'`` one when None.
    """

    def __init__(self, attr, rate, init=None, target=None, optimizer=None):
        if not rate > 0:
            raise ValueError(f"ExponentialShift: rate must be positive, got {rate!r}")
        super().__init__(attr, init, optimizer)
        self._rate = rate
        self._target = target

    def compute(self, t):
        return clip_to_target(self._init * self._rate ** t, self._target, self._rate > 1)
