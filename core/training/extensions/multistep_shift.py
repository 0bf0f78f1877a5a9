"""MultistepShift: multiply an optimizer attribute by ``gamma`` at each listed call count."""
import bisect

from kusari.training.extensions._value_shift import ValueShift


class MultistepShift(ValueShift):
    """``value(t) = init * gamma ** k`` where ``k`` is the number of ``step_value`` entries ``<= t``.

    Parameters
    ----------
    attr : str
        optimizer attribute, e.g. ``'lr'``.
    gamma : float
        factor at each step.
    step_value : list of int
        increasing call counts at which to multiply.
    init : float
        initial value (the optimizer's current value when None).
    optimizer
        the optimizer; the trainer's ``'main'`` one when None.
    """

    def __init__(self, attr, gamma, step_value, init, optimizer=None):
        step_value = list(step_value)
        if step_value != sorted(step_value):
            raise ValueError(f"MultistepShift: step_value must be increasing, got {step_value}")
        super().__init__(attr, init, optimizer)
        self._gamma = gamma
        self._step_value = step_value

    def compute(self, t):
        return self._init * self._gamma ** bisect.bisect_right(self._step_value, t)
