"""expand_dims: insert a size-1 axis."""
from kusari import utils
from kusari.functions.array.reshape import reshape


def expand_dims(x, axis):
    """``x`` with a new axis of size 1 at position ``axis`` (``-x.ndim - 1 <= axis <= x.ndim``).

    ``x``: array of shape ``s``. Returns a Variable with ``x.ndim + 1`` dimensions.
    """
    shape = tuple(x.shape)
    axis = utils.normalize_axis("expand_dims", axis, len(shape) + 1)[0]
    return reshape(x, shape[:axis] + (1,) + shape[axis:])
