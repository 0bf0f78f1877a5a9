"""WarmupShift: raise an optimizer attribute linearly from ``warmup_start`` to ``init`` over the first calls."""
from kusari.training.extensions._value_shift import ValueShift


class WarmupShift(ValueShift):
    """``warmup_start + (init - warmup_start) * t / warmup_iter`` for ``t < warmup_iter``, then ``init``.

    Parameters
    ----------
    attr : str
        optimizer attribute, e.g. ``'lr'``.
    warmup_start : float
        the value at ``t = 0``.
    warmup_iter : int
        number of warm-up calls (> 0).
    init : float
        the value after warm-up; the optimizer's current value when None.
    optimizer
        the optimizer; the trainer's ``'main'`` one when None.
    """

    def __init__(self, attr, warmup_start, warmup_iter, init=None, optimizer=None):
        if not warmup_iter > 0:
            raise ValueError(f"WarmupShift: warmup_iter must be positive, got {warmup_iter!r}")
        super().__init__(attr, init, optimizer)
        self._warmup_start = warmup_start
        self._warmup_iter = warmup_iter

    def compute(self, t):
        if t >= self._warmup_iter:
            return self._init
        return self._warmup_start + (self._init - self._warmup_start) * t / self._warmup_iter
