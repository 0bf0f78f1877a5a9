"""PolynomialShift: decay an optimizer attribute to 0 as ``init * (1 - t / max_count) ** rate``."""
from kusari.training.extensions._value_shift import ValueShift, clip_to_target


class PolynomialShift(ValueShift):
    """``value(t) = init * max(1 - t / max_count, 0) ** rate``, bounded below by ``target``.

    Parameters
    ----------
    attr : str
        optimizer attribute, e.g. ``'lr'``.
    rate : float
        the exponent (e.g. 0.9 for the "poly" schedule).
    max_count : int
        calls until the value reaches 0 (usually the training length in iterations).
    init : float
        initial value; the optimizer's current value when None.
    target : float
        a lower bound.
    optimizer
        the optimizer; the trainer's ``'main'`` one when None.
    """

    def __init__(self, attr, rate, max_count, init=None, target=None, optimizer=None):
        if not max_count > 0:
            raise ValueError(f"PolynomialShift: max_count must be positive, got {max_count!r}")
        super().__init__(attr, init, optimizer)
        self._rate = rate
        self._max_count = max_count
        self._target = target

    def compute(self, t):
        decay = max(1 - t / self._max_count, 0)
        return clip_to_target(self._init * decay ** self._rate, self._target, False)
