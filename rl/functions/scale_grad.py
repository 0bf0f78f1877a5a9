"""scale_grad: the identity whose gradient is multiplied by a constant (ChainerRL's scale_grad)."""
import kusari


def scale_grad(x, scale: float) -> kusari.Variable:
    """``x`` unchanged, with the gradient flowing back through it multiplied by ``scale``.

    Composed as ``c + scale * (x - c)`` with ``c`` a constant copy of ``x``: the value is ``x``
    exactly (``x - c`` is zero) and the derivative is ``scale``, at any order.

    Parameters
    ----------
    x : Variable or array of any shape
    scale : float

    Returns
    -------
    Variable of ``x``'s shape and dtype.
    """
    x = kusari.as_variable(x)
    constant = x.array
    return constant + scale * (x - constant)
