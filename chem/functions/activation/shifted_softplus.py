"""shifted_softplus: softplus minus log 2 (for beta=1), so that f(0) = 0 (SchNet's activation)."""
import math

import kusari
import kusari.functions as F
from kusari import backend


def shifted_softplus(x, beta: float = 1, shift: float = 0.5, threshold: float = 20):
    """``softplus(x, beta) + log(shift)``, with ``x`` itself taken above ``threshold``.

    Parameters
    ----------
    x : Variable or array, any shape, float dtype
    beta : float
        Sharpness of the softplus, ``log(1 + exp(beta * x)) / beta``.
    shift : float
        ``log(shift)`` is added; the default 0.5 makes ``f(0) = 0`` for ``beta=1``.
    threshold : float
        Above it the softplus is replaced by ``x`` (they agree there to float precision).

    Returns
    -------
    Variable
        Same shape and dtype as ``x``.
    """
    data = kusari.as_variable(x).array
    # asarray: comparing a 0-d array gives a NumPy scalar, which where() does not take
    above = backend.get_array_module(data).asarray(data > threshold)
    # a Python float keeps the dtype of x (float32 stays float32)
    return F.where(above, x, F.softplus(x, beta=beta)) + math.log(shift)
