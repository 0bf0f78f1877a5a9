"""dstack: join arrays depth-wise (along axis 2)."""
from kusari.functions.array.concat import check_joinable, concat
from kusari.functions.array.reshape import reshape


def _atleast_3d(shape):
    if len(shape) == 0:
        return (1, 1, 1)
    if len(shape) == 1:
        return (1, shape[0], 1)
    if len(shape) == 2:
        return shape + (1,)
    return shape


def dstack(xs):
    """Concatenate ``xs`` along axis 2 after viewing ``(n,)`` as ``(1, n, 1)`` and ``(m, n)`` as
    ``(m, n, 1)`` (``numpy.dstack``); equal shapes required except along axis 2."""
    xs = [reshape(x, _atleast_3d(tuple(x.shape))) for x in xs]
    check_joinable("dstack", xs, 2)
    return concat(xs, axis=2)
