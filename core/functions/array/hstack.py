"""hstack: join arrays horizontally (along axis 1, or axis 0 for vectors)."""
from kusari.functions.array.concat import check_joinable, concat
from kusari.functions.array.reshape import reshape


def hstack(xs):
    """Concatenate ``xs`` along axis 1, or along axis 0 when they are 1-D (``numpy.hstack``).

    ``xs``: arrays of equal shapes except along that axis; 0-D arrays count as shape ``(1,)``.
    """
    xs = [x if x.ndim else reshape(x, (1,)) for x in xs]
    axis = 0 if xs and xs[0].ndim == 1 else 1
    check_joinable("hstack", xs, axis)
    return concat(xs, axis=axis)
