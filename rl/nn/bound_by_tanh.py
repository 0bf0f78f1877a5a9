"""BoundByTanh: squashes values into a box ``[low, high]`` with tanh (bounded deterministic actions)."""
import kusari
import kusari.functions as F
from kusari.rl.nn.lmbda import Lambda


def bound_by_tanh(x, low, high) -> kusari.Variable:
    """``tanh(x) * (high - low) / 2 + (high + low) / 2``, elementwise.

    Parameters
    ----------
    x : float Variable or array of shape (..., n)
    low, high : arrays (or scalars) broadcastable to ``x``; cast to ``x``'s dtype.

    Returns
    -------
    Variable shaped like ``x`` with values in [low, high].
    """
    x = kusari.as_variable(x)
    if low is None or high is None:
        raise ValueError("bound_by_tanh: low and high must be given")
    xp = x.xp
    low = xp.asarray(low, dtype=x.dtype)
    high = xp.asarray(high, dtype=x.dtype)
    if bool((low > high).any()):
        raise ValueError(f"bound_by_tanh: low must not exceed high (low={low}, high={high})")
    scale = (high - low) / 2
    loc = (high + low) / 2
    return F.tanh(x) * scale + loc


class BoundByTanh(Lambda):
    """Link form of ``bound_by_tanh(x, low, high)``.

    Parameters
    ----------
    low, high : arrays (or scalars), the bounds (e.g. a gymnasium Box's ``low`` / ``high``).
    """

    def __init__(self, low, high):
        super().__init__(lambda x: bound_by_tanh(x, low, high))
        self.low, self.high = low, high
