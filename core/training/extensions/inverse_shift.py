"""InverseShift: decay an optimizer attribute as ``init * (1 + gamma * t) ** -power``."""
from kusari.training.extensions._value_shift import ValueShift, clip_to_target


class InverseShift(ValueShift):
    """``value(t) = init * (1 + gamma * t) ** (-power)``, bounded by ``target``.

    Parameters
    ----------
    attr : str
        optimizer attribute, e.g. ``'lr'``.
    gamma : float
        time scale (>= 0).
    power : float
        exponent.
    init : float
        initial value; the optimizer's current value when None.
    target : float
        a bound not to pass (lower if the value decreases, upper otherwise).
    optimizer
        the optimizer; the trainer's ``'main'`` one when None.
    """

    def __init__(self, attr, gamma, power, init=None, target=None, optimizer=None):
        if gamma < 0:
            raise ValueError(f"InverseShift: gamma must be non-negative, got {gamma!r}")
        super().__init__(attr, init, optimizer)
        self._gamma = gamma
        self._power = power
        self._target = target

    def compute(self, t):
        value = self._init * (1 + self._gamma * t) ** (-self._power)
        return clip_to_target(value, self._target, self._power < 0)
