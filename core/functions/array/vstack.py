"""vstack: join arrays vertically (along axis 0, vectors becoming rows)."""
from kusari.functions.array.concat import check_joinable, concat
from kusari.functions.array.reshape import reshape


def vstack(xs):
    """Concatenate ``xs`` along axis 0 after turning 1-D arrays ``(n,)`` into rows ``(1, n)``.

    ``xs``: arrays of equal shapes except along axis 0 (``numpy.vstack``); 0-D counts as ``(1, 1)``.
    """
    xs = [x if x.ndim >= 2 else reshape(x, (1, x.size)) for x in xs]
    check_joinable("vstack", xs, 0)
    return concat(xs, axis=0)
