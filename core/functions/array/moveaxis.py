"""moveaxis: move axes of an array to new positions."""
import numbers

from kusari import utils
from kusari.functions.array.transpose import transpose


def _positions(argname, axes, ndim):
    axes = (axes,) if isinstance(axes, numbers.Integral) else tuple(axes)
    out = [utils.normalize_axis("moveaxis", a, ndim)[0] for a in axes]
    if len(set(out)) != len(out):
        raise ValueError(f"moveaxis: repeated axis in {argname}={axes}")
    return out


def moveaxis(x, source, destination):
    """``x`` with axes ``source`` moved to ``destination`` (ints or equal-length sequences).

    The other axes keep their relative order, as in ``numpy.moveaxis``.
    """
    ndim = len(x.shape)
    src = _positions("source", source, ndim)
    dst = _positions("destination", destination, ndim)
    if len(src) != len(dst):
        raise ValueError(f"moveaxis: source={source} and destination={destination} must have "
                         "the same number of elements")
    order = [a for a in range(ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, order)
