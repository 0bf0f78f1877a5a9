"""Shared sampling for the random initializers: draw from ``rng`` (host) or the array's own ``xp.random``."""
import numpy

from kusari import backend


def check_dtype(who: str, initializer, array) -> None:
    """Raise if ``initializer`` fixes a dtype that ``array`` does not have."""
    if initializer.dtype is not None and array.dtype != initializer.dtype:
        raise ValueError(f"{who}: array dtype {array.dtype} != initializer dtype {initializer.dtype}")


def fill(who: str, initializer, array, distribution: str, a: float, b: float) -> None:
    """Fill ``array`` with ``normal(a, b)`` or ``uniform(a, b)`` samples.

    With ``initializer.rng`` set the samples come from that host generator (numpy
    ``RandomState`` or ``Generator``) and are sent to the array's device; otherwise from the
    global ``numpy.random`` or ``cupy.random`` of the array.
    """
    check_dtype(who, initializer, array)
    if array.dtype.kind != "f":
        raise TypeError(f"{who}: array must have a float dtype, got {array.dtype}")
    rng = initializer.rng
    if rng is None:
        source = backend.get_array_module(array).random
    else:
        source = rng
    draw = getattr(source, distribution)
    values = draw(a, b, size=array.shape)
    if rng is not None:
        values = backend.get_device_from_array(array).send(numpy.asarray(values))
    array[...] = values
