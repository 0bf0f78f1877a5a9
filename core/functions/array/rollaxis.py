"""rollaxis: roll one axis backwards to a given position."""
from kusari.functions.array.transpose import transpose
from kusari.utils.type_check import InvalidType


def rollaxis(x, axis, start=0):
    """``x`` with ``axis`` moved to lie before position ``start`` (as ``numpy.rollaxis``).

    ``-x.ndim <= axis < x.ndim`` and ``-x.ndim <= start <= x.ndim``; the other axes keep their order.
    """
    ndim = len(x.shape)
    if not -ndim <= axis < ndim:
        raise InvalidType(None, None, f"rollaxis: axis={axis} is out of bounds for x with {ndim} dimensions")
    if not -ndim <= start <= ndim:
        raise InvalidType(None, None, f"rollaxis: start={start} must lie in [{-ndim}, {ndim}] "
                                      f"for x with {ndim} dimensions")
    axis %= ndim
    if start < 0:
        start += ndim
    order = [a for a in range(ndim) if a != axis]
    order.insert(start - 1 if start > axis else start, axis)
    return transpose(x, order)
