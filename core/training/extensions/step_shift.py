"""StepShift: multiply an optimizer attribute by ``gamma`` every ``step`` calls."""
from kusari.training.extensions._value_shift import ValueShift, clip_to_target


class StepShift(ValueShift):
    """``value(t) = init * gamma ** (t // step)``, bounded by ``target``.

    Parameters
    ----------
    attr : str
        optimizer attribute, e.g. ``'lr'``.
    gamma : float
        factor per step (> 0).
    step : int
        calls per step (> 0).
    init : float
        initial value; the optimizer's current value when None.
    target : float
        a bound not to pass (upper if ``gamma > 1``, lower otherwise).
    optimizer
        the optimizer; the trainer's ``'main'`` one when None.
    """

    def __init__(self, attr, gamma, step, init=None, target=None, optimizer=None):
        if not gamma > 0:
            raise ValueError(f"StepShift: gamma must be positive, got {gamma!r}")
        if not (isinstance(step, int) and step > 0):
            raise ValueError(f"StepShift: step must be a positive int, got {step!r}")
        super().__init__(attr, init, optimizer)
        self._gamma = gamma
        self._step = step
        self._target = target

    def compute(self, t):
        return clip_to_target(self._init * self._gamma ** (t // self._step), self._target, self._gamma > 1)
